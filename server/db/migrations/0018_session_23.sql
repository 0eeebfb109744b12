CREATE TABLE "service_classifications_mailings" (
	"classification_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_classifications_mailings_classification_id_mailing_id_pk" PRIMARY KEY("classification_id","mailing_id")
);
--> statement-breakpoint
ALTER TABLE "chat_channels" ADD COLUMN "messages_per_second" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_classifications_mailings_mailing_id_idx" ON "service_classifications_mailings" USING btree ("mailing_id");