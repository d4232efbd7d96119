import type { Catalog } from './en.ts';

export const ar: Catalog = {
  'phone.code':
    'رمز التحقق الخاص بك هو {code}. تنتهي صلاحيته خلال {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}}. لا تشاركه مع أي شخص أبدًا.',
  'phone.voice_intro': 'رمز التحقق الخاص بك هو',
  'phone.signup_number_taken':
    'حاول شخص ما إنشاء حساب بهذا الرقم، وله حساب بالفعل. سجّل الدخول أو أعد تعيين رقم PIN بدلًا من ذلك.',
  'phone.phone_change_number_taken':
    'حاول شخص ما نقل حساب آخر إلى هذا الرقم، وله حساب بالفعل. لم يتم إجراء أي تغيير.',
  'phone.phone_changed':
    'تم تغيير رقم هاتف حسابك إلى رقم آخر. إذا لم تفعل ذلك، فتواصل مع التطبيق الذي سجّلت فيه.',
};
