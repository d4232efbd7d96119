import type { Catalog } from './en.ts';

export const sw: Catalog = {
  'phone.code':
    'Msimbo wako wa uthibitishaji ni {code}. Utaisha baada ya {minutes, plural, one {dakika #} other {dakika #}}. Usiushiriki na mtu yeyote.',
  'phone.voice_intro': 'Msimbo wako wa uthibitishaji ni',
  'phone.signup_number_taken':
    'Mtu alijaribu kufungua akaunti kwa nambari hii, ambayo tayari ina akaunti. Ingia au weka upya PIN yako badala yake.',
  'phone.phone_change_number_taken':
    'Mtu alijaribu kuhamishia akaunti nyingine kwenye nambari hii, ambayo tayari ina akaunti. Hakuna kilichobadilishwa.',
  'phone.phone_changed':
    'Nambari ya simu ya akaunti yako imebadilishwa kuwa nambari nyingine. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
  'phone.passkey_added':
    'Passkey imeongezwa kwenye akaunti yako. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
  'phone.pin_changed': 'PIN yako imebadilishwa. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
  'phone.pin_reset_by_recovery_code':
    'PIN yako imewekwa upya kwa msimbo wa kurejesha. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
  'phone.recovery_codes_created':
    'Misimbo mipya ya urejeshaji imetengenezwa kwa akaunti yako; ile ya awali haifanyi kazi tena. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
  'phone.signed_in_by_recovery_code':
    'Mtu ameingia kwenye akaunti yako kwa msimbo wa urejeshaji. Ikiwa si wewe, wasiliana na programu uliyojisajili nayo.',
};
