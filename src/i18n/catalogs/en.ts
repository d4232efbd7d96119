// The messages in English: the source every other language translates, key for key.
export const en = {
  'phone.code':
    'Your verification code is {code}. It expires in {minutes, plural, one {# minute} other {# minutes}}. Never share it.',
  'phone.voice_intro': 'Your verification code is',
  'phone.signup_number_taken':
    'Someone tried to create an account with this number, which already has one. Sign in or reset your PIN instead.',
  'phone.phone_change_number_taken':
    'Someone tried to move another account to this number, which already has one. No change was made.',
  'phone.phone_changed':
    'The phone number of your account was changed to another number. If you did not do this, contact the app you signed up with.',
  'phone.passkey_added':
    'A passkey was added to your account. If you did not do this, contact the app you signed up with.',
  'phone.pin_changed': 'Your PIN was changed. If you did not do this, contact the app you signed up with.',
  'phone.pin_reset_by_recovery_code':
    'Your PIN was reset with a recovery code. If you did not do this, contact the app you signed up with.',
  'phone.recovery_codes_created':
    'New recovery codes were made for your account; the ones before no longer work. If you did not do this, contact the app you signed up with.',
  'phone.signed_in_by_recovery_code':
    'Someone signed in to your account with a recovery code. If you did not do this, contact the app you signed up with.',
};

export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;
