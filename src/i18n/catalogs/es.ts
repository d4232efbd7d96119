import type { Catalog } from './en.ts';

export const es: Catalog = {
  'phone.code':
    'Tu código de verificación es {code}. Caduca en {minutes, plural, one {# minuto} other {# minutos}}. No lo compartas nunca.',
  'phone.voice_intro': 'Tu código de verificación es',
  'phone.signup_number_taken':
    'Alguien intentó crear una cuenta con este número, que ya tiene una. Inicia sesión o restablece tu PIN.',
  'phone.phone_change_number_taken':
    'Alguien intentó trasladar otra cuenta a este número, que ya tiene una. No se ha hecho ningún cambio.',
  'phone.phone_changed':
    'El número de teléfono de tu cuenta se cambió por otro. Si no fuiste tú, contacta con la aplicación en la que te registraste.',
  'phone.passkey_added':
    'Se añadió una llave de acceso a tu cuenta. Si no fuiste tú, contacta con la app con la que te registraste.',
  'phone.pin_changed': 'Tu PIN se cambió. Si no fuiste tú, contacta con la app con la que te registraste.',
  'phone.pin_reset_by_recovery_code':
    'Tu PIN se restableció con un código de recuperación. Si no fuiste tú, contacta con la app con la que te registraste.',
  'phone.recovery_codes_created':
    'Se crearon nuevos códigos de recuperación para tu cuenta; los anteriores ya no funcionan. Si no fuiste tú, contacta con la app con la que te registraste.',
  'phone.signed_in_by_recovery_code':
    'Alguien inició sesión en tu cuenta con un código de recuperación. Si no fuiste tú, contacta con la app con la que te registraste.',
};
