ALTER TABLE "service_forms_fields" ADD COLUMN "return_object" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service_forms_fields" ADD COLUMN "return_to_string" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service_forms_fields" ADD COLUMN "date_format" text DEFAULT '' NOT NULL;