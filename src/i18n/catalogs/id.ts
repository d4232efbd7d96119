import type { Catalog } from './en.ts';

export const id: Catalog = {
  'phone.code':
    'Kode verifikasi Anda adalah {code}. Kode ini kedaluwarsa dalam {minutes, plural, other {# menit}}. Jangan pernah membagikannya.',
  'phone.voice_intro': 'Kode verifikasi Anda adalah',
  'phone.signup_number_taken':
    'Seseorang mencoba membuat akun dengan nomor ini, yang sudah memiliki akun. Masuk atau atur ulang PIN Anda.',
  'phone.phone_change_number_taken':
    'Seseorang mencoba memindahkan akun lain ke nomor ini, yang sudah memiliki akun. Tidak ada yang diubah.',
  'phone.phone_changed':
    'Nomor telepon akun Anda telah diganti dengan nomor lain. Jika bukan Anda yang melakukannya, hubungi aplikasi tempat Anda mendaftar.',
  'phone.passkey_added':
    'Sebuah kunci sandi ditambahkan ke akun Anda. Jika ini bukan Anda, hubungi aplikasi tempat Anda mendaftar.',
  'phone.pin_changed': 'PIN Anda telah diubah. Jika ini bukan Anda, hubungi aplikasi tempat Anda mendaftar.',
  'phone.pin_reset_by_recovery_code':
    'PIN Anda diatur ulang dengan kode pemulihan. Jika ini bukan Anda, hubungi aplikasi tempat Anda mendaftar.',
  'phone.recovery_codes_created':
    'Kode pemulihan baru dibuat untuk akun Anda; kode sebelumnya tidak berlaku lagi. Jika ini bukan Anda, hubungi aplikasi tempat Anda mendaftar.',
  'phone.signed_in_by_recovery_code':
    'Seseorang masuk ke akun Anda dengan kode pemulihan. Jika ini bukan Anda, hubungi aplikasi tempat Anda mendaftar.',
};
