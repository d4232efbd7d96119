import type { Catalog } from './en.ts';

export const fr: Catalog = {
  'phone.code':
    'Votre code de vérification est {code}. Il expire dans {minutes, plural, one {# minute} other {# minutes}}. Ne le partagez jamais.',
  'phone.voice_intro': 'Votre code de vérification est',
  'phone.signup_number_taken':
    "Quelqu'un a essayé de créer un compte avec ce numéro, qui en a déjà un. Connectez-vous ou réinitialisez votre code PIN.",
  'phone.phone_change_number_taken':
    "Quelqu'un a essayé de transférer un autre compte vers ce numéro, qui en a déjà un. Rien n'a été modifié.",
  'phone.phone_changed':
    "Le numéro de téléphone de votre compte a été remplacé par un autre. Si ce n'était pas vous, contactez l'application où vous vous êtes inscrit.",
  'phone.passkey_added':
    'Une clé d’accès a été ajoutée à votre compte. Si ce n’est pas vous, contactez l’application avec laquelle vous vous êtes inscrit.',
  'phone.pin_changed':
    'Votre code PIN a été modifié. Si ce n’est pas vous, contactez l’application avec laquelle vous vous êtes inscrit.',
  'phone.pin_reset_by_recovery_code':
    'Votre code PIN a été réinitialisé avec un code de récupération. Si ce n’est pas vous, contactez l’application avec laquelle vous vous êtes inscrit.',
  'phone.recovery_codes_created':
    'De nouveaux codes de récupération ont été créés pour votre compte ; les précédents ne fonctionnent plus. Si ce n’est pas vous, contactez l’application avec laquelle vous vous êtes inscrit.',
  'phone.signed_in_by_recovery_code':
    'Quelqu’un s’est connecté à votre compte avec un code de récupération. Si ce n’est pas vous, contactez l’application avec laquelle vous vous êtes inscrit.',
};
