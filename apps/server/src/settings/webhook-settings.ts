import { Type } from '@sinclair/typebox'
import './formats.js'
import { setting } from './setting.js'

/** The settings of webhooks' delivery, spread into SettingsSchema. */
export const webhookSettings = {
  webhookAllowedHosts: setting(
    Type.Array(Type.String({ format: 'host-port' }), {
      default: [],
      description:
        'Comma-separated host:port pairs (hooks.internal:8080, 127.0.0.1:9000) webhooks may post to even though their address is private, loopback, link-local or multicast. Empty: none.',
    }),
    { env: 'WEBHOOK_ALLOWED_HOSTS', expected: 'a host:port such as 127.0.0.1:9000' },
  ),
}
