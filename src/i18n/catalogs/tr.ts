import type { Catalog } from './en.ts';

export const tr: Catalog = {
  'phone.code':
    'Doğrulama kodunuz {code}. {minutes, plural, one {# dakika} other {# dakika}} içinde geçerliliğini yitirir. Kodu asla kimseyle paylaşmayın.',
  'phone.voice_intro': 'Doğrulama kodunuz',
  'phone.signup_number_taken':
    'Birisi zaten bir hesabı olan bu numarayla hesap oluşturmaya çalıştı. Bunun yerine giriş yapın veya PIN kodunuzu sıfırlayın.',
  'phone.phone_change_number_taken':
    'Birisi başka bir hesabı, zaten bir hesabı olan bu numaraya taşımaya çalıştı. Hiçbir değişiklik yapılmadı.',
  'phone.phone_changed':
    'Hesabınızın telefon numarası başka bir numarayla değiştirildi. Bunu siz yapmadıysanız kaydolduğunuz uygulamayla iletişime geçin.',
  'phone.passkey_added':
    'Hesabınıza bir geçiş anahtarı eklendi. Bunu siz yapmadıysanız, kaydolduğunuz uygulamayla iletişime geçin.',
  'phone.pin_changed':
    'PIN kodunuz değiştirildi. Bunu siz yapmadıysanız, kaydolduğunuz uygulamayla iletişime geçin.',
  'phone.pin_reset_by_recovery_code':
    'PIN kodunuz bir kurtarma koduyla sıfırlandı. Bunu siz yapmadıysanız, kaydolduğunuz uygulamayla iletişime geçin.',
  'phone.recovery_codes_created':
    'Hesabınız için yeni kurtarma kodları oluşturuldu; öncekiler artık çalışmıyor. Bunu siz yapmadıysanız, kaydolduğunuz uygulamayla iletişime geçin.',
  'phone.signed_in_by_recovery_code':
    'Birisi bir kurtarma koduyla hesabınıza giriş yaptı. Bunu siz yapmadıysanız, kaydolduğunuz uygulamayla iletişime geçin.',
};
