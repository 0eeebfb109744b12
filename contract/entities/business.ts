import { defineEntity, t } from './define.ts'
import { color, datetime, decimal, description, field, fk, integer, isActive, items, many, secret, text, textarea, toggle, upload } from './fields.ts'

// Settings → business: the organisation itself (sites, users, permission groups, departments, contracts).

const IMAGE = 'image/png,image/jpeg,image/gif,image/webp,image/x-icon,image/svg+xml'

export const contracts = defineEntity({
  area: 'business',
  name: 'contracts',
  model: 'contract',
  route: 'business/contracts',
  label: { singular: t('Contrato', 'Contract', 'Contrato'), plural: t('Contratos', 'Contracts', 'Contratos') },
  fields: [
    description(),
    isActive(),
    text('code', t('Código', 'Code', 'Código'), { max: 50, unique: true, searchable: true }),
    fk('organization', t('Organização', 'Organization', 'Organización'), 'crm.organizations', { kind: 'autocomplete', required: true }),
    datetime('start_date', t('Início da vigência', 'Start date', 'Inicio de vigencia'), { required: true }),
    datetime('end_date', t('Fim da vigência', 'End date', 'Fin de vigencia')),
    decimal('monthly_value', t('Valor mensal', 'Monthly value', 'Valor mensual')),
    textarea('notes', t('Observações', 'Notes', 'Observaciones')),
  ],
  list: { columns: ['id', 'is_active', 'description', 'code', 'organization'] },
})

export const departments = defineEntity({
  area: 'business',
  name: 'departments',
  model: 'department',
  route: 'business/departments',
  label: { singular: t('Departamento', 'Department', 'Departamento'), plural: t('Departamentos', 'Departments', 'Departamentos') },
  fields: [
    description(),
    isActive(),
    fk('manager', t('Responsável', 'Manager', 'Responsable'), 'business.users', { kind: 'autocomplete', title: 'username' }),
    text('email', t('E-mail', 'E-mail', 'Correo electrónico'), { validation: 'email', max: 254 }),
    text('phone', t('Telefone', 'Phone', 'Teléfono'), { validation: 'phone', max: 20 }),
  ],
})

export const groups = defineEntity({
  area: 'business',
  name: 'groups',
  model: 'group',
  route: 'business/groups',
  label: {
    singular: t('Grupo de permissões', 'Permission group', 'Grupo de permisos'),
    plural: t('Grupos de permissões', 'Permission groups', 'Grupos de permisos'),
  },
  titleField: 'name',
  fields: [
    text('name', t('Nome', 'Name', 'Nombre'), { required: true, max: 150, unique: true, searchable: true }),
    isActive(),
    // The picker lists every codename the product knows (contract/permissions.ts and the entities' own).
    field('permissions', 'autocomplete', t('Permissões', 'Permissions', 'Permisos'), {
      cols: 12,
      multiple: true,
      lookup: { path: '/api/v1/business/permissions/', value: 'codename', label: 'name' },
      hint: t('Os usuários do grupo recebem estas permissões', 'Users in the group receive these permissions', 'Los usuarios del grupo reciben estos permisos'),
    }),
  ],
})

export const sites = defineEntity({
  area: 'business',
  name: 'sites',
  model: 'site',
  route: 'business/sites',
  label: { singular: t('Site', 'Site', 'Sitio'), plural: t('Sites', 'Sites', 'Sitios') },
  fields: [
    description(),
    isActive(),
    // Claimed once, by the platform operator: a site admin who moved it could take over another tenant's address.
    text('domain', t('Domínio', 'Domain', 'Dominio'), { required: true, max: 253, unique: true, validation: 'host', searchable: true, platform: true }),
    integer('password_expire_days', t('Validade da senha (dias)', 'Password lifetime (days)', 'Validez de la contraseña (días)'), {
      default: 90,
      hint: t('0 = a senha não expira', '0 = passwords never expire', '0 = la contraseña no caduca'),
    }),
    integer('password_notify_days', t('Aviso de expiração (dias)', 'Expiry warning (days)', 'Aviso de caducidad (días)'), { default: 7 }),
    // The embedding (spec 001 §7): pages allowed to frame the app (Content-Security-Policy frame-ancestors).
    items('embed_origins', t('Sites que podem incorporar o Atende', 'Sites that may embed Atende', 'Sitios que pueden insertar Atende'), ',', {
      validation: 'origin',
      max: 2048,
      hint: t(
        'Origens (https://crm.exemplo.com) separadas por vírgula; vazio = só o próprio Atende',
        'Origins (https://crm.example.com), comma-separated; empty = Atende itself only',
        'Orígenes (https://crm.ejemplo.com) separados por comas; vacío = solo el propio Atende',
      ),
    }),
    upload('logo_favicon', t('Favicon', 'Favicon', 'Favicon'), IMAGE),
    upload('logo_login', t('Logo da tela de login', 'Sign-in page logo', 'Logo de la pantalla de acceso'), IMAGE),
    upload('logo_footer', t('Logo do rodapé', 'Footer logo', 'Logo del pie de página'), IMAGE),
    text('url_footer', t('Link do rodapé', 'Footer link', 'Enlace del pie de página'), { validation: 'url', max: 500 }),
    color('menu_primary_color', t('Cor do menu', 'Menu colour', 'Color del menú')),
    color('header_color', t('Cor do cabeçalho', 'Header colour', 'Color del encabezado')),
    color('body_color', t('Cor do corpo', 'Body colour', 'Color del cuerpo')),
    color('footer_color', t('Cor do rodapé', 'Footer colour', 'Color del pie de página')),
    color('login_color', t('Cor da tela de login', 'Sign-in page colour', 'Color de la pantalla de acceso')),
    color('button_primary_color', t('Cor do botão principal', 'Primary button colour', 'Color del botón principal')),
    color('button_secondary_color', t('Cor do botão secundário', 'Secondary button colour', 'Color del botón secundario')),
    color('switch_color', t('Cor dos interruptores', 'Switch colour', 'Color de los interruptores')),
  ],
  form: {
    tabs: [
      {
        key: 'general',
        label: t('Geral', 'General', 'General'),
        fields: ['description', 'is_active', 'domain', 'password_expire_days', 'password_notify_days', 'embed_origins'],
      },
      { key: 'logos', label: t('Logos', 'Logos', 'Logotipos'), fields: ['logo_favicon', 'logo_login', 'logo_footer', 'url_footer'] },
      {
        key: 'colors',
        label: t('Cores', 'Colours', 'Colores'),
        fields: [
          'menu_primary_color',
          'header_color',
          'body_color',
          'footer_color',
          'login_color',
          'button_primary_color',
          'button_secondary_color',
          'switch_color',
        ],
      },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'domain'] },
  // A new tenant, or one gone, is the platform operator's act (`npm run site`): a site's own admins cannot see others.
  platformActions: ['add', 'delete'],
})

export const users = defineEntity({
  area: 'business',
  name: 'users',
  model: 'user',
  route: 'business/users',
  label: { singular: t('Usuário', 'User', 'Usuario'), plural: t('Usuários', 'Users', 'Usuarios') },
  titleField: 'username',
  fields: [
    text('username', t('Usuário', 'Username', 'Usuario'), { required: true, max: 150, unique: true, searchable: true }),
    isActive(),
    text('first_name', t('Nome', 'First name', 'Nombre'), { max: 150, searchable: true }),
    text('last_name', t('Sobrenome', 'Last name', 'Apellido'), { max: 150, searchable: true }),
    text('email', t('E-mail', 'E-mail', 'Correo electrónico'), { validation: 'email', max: 254, searchable: true }),
    secret('password', t('Senha', 'Password', 'Contraseña'), 'hash', {
      required: true,
      min: 8,
      hint: t('Deixe em branco para manter a senha atual', 'Leave blank to keep the current password', 'Déjelo en blanco para mantener la contraseña actual'),
    }),
    upload('avatar', t('Foto', 'Photo', 'Foto'), 'image/png,image/jpeg,image/gif,image/webp'),
    many('groups', t('Grupos de permissões', 'Permission groups', 'Grupos de permisos'), 'business.groups', { title: 'name' }),
    fk('team', t('Equipe', 'Team', 'Equipo'), 'service.teams', { title: 'name' }),
    fk('department', t('Departamento', 'Department', 'Departamento'), 'business.departments'),
    fk('device', t('Ramal (dispositivo SIP)', 'Extension (SIP device)', 'Extensión (dispositivo SIP)'), 'pabx.devices', { kind: 'autocomplete', unique: true }),
    many('chat_channels', t('Canais de chat', 'Chat channels', 'Canales de chat'), 'chat.channels'),
    toggle('login_channel_telephony', t('Entrar na telefonia ao acessar', 'Join telephony on sign-in', 'Entrar en telefonía al acceder')),
    toggle('login_channel_chat', t('Entrar no chat ao acessar', 'Join chat on sign-in', 'Entrar en el chat al acceder')),
  ],
  form: {
    tabs: [
      { key: 'general', label: t('Geral', 'General', 'General'), fields: ['username', 'is_active', 'first_name', 'last_name', 'email', 'password', 'avatar'] },
      { key: 'access', label: t('Acesso', 'Access', 'Acceso'), fields: ['groups', 'team', 'department'] },
      {
        key: 'service',
        label: t('Atendimento', 'Service', 'Atención'),
        fields: ['device', 'chat_channels', 'login_channel_telephony', 'login_channel_chat'],
      },
    ],
  },
  list: { columns: ['id', 'is_active', 'username', 'first_name', 'last_name', 'team'] },
})

export const BUSINESS = [contracts, departments, groups, sites, users] as const
