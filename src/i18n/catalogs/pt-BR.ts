import type { Catalog } from './en.ts';

export const ptBR: Catalog = {
  'phone.code':
    'Seu código de verificação é {code}. Ele expira em {minutes, plural, one {# minuto} other {# minutos}}. Nunca o compartilhe.',
  'phone.voice_intro': 'Seu código de verificação é',
  'phone.signup_number_taken':
    'Alguém tentou criar uma conta com este número, que já tem uma. Entre ou redefina seu PIN.',
  'phone.phone_change_number_taken':
    'Alguém tentou transferir outra conta para este número, que já tem uma. Nenhuma alteração foi feita.',
  'phone.phone_changed':
    'O número de telefone da sua conta foi trocado por outro. Se não foi você, entre em contato com o app em que se cadastrou.',
  'phone.passkey_added':
    'Uma chave de acesso foi adicionada à sua conta. Se não foi você, entre em contato com o app em que você se cadastrou.',
  'phone.pin_changed':
    'Seu PIN foi alterado. Se não foi você, entre em contato com o app em que você se cadastrou.',
  'phone.pin_reset_by_recovery_code':
    'Seu PIN foi redefinido com um código de recuperação. Se não foi você, entre em contato com o app em que você se cadastrou.',
  'phone.recovery_codes_created':
    'Novos códigos de recuperação foram criados para a sua conta; os anteriores não funcionam mais. Se não foi você, entre em contato com o app em que você se cadastrou.',
  'phone.signed_in_by_recovery_code':
    'Alguém entrou na sua conta com um código de recuperação. Se não foi você, entre em contato com o app em que você se cadastrou.',
};
