import type { VerifyCatalog } from './en-verify.ts';

export const frVerify: VerifyCatalog = {
  'verify.title': 'Vérifiez votre identité',
  'verify.intro':
    'Il nous faut votre pays, votre date de naissance et la photo d’une pièce d’identité. Le selfie est facultatif ; avec lui, votre vérification atteint le niveau supérieur.',
  'verify.country': 'Pays',
  'verify.choose_country': 'Choisissez votre pays',
  'verify.birthday': 'Date de naissance',
  'verify.document_kind': 'Type de document',
  'verify.choose_document': 'Choisissez un document',
  'document.passport': 'Passeport',
  'document.national_id': 'Carte nationale d’identité',
  'document.driving_licence': 'Permis de conduire',
  'document.residence_permit': 'Titre de séjour',
  'verify.document': 'Photo du document',
  'verify.document_hint': 'JPEG, PNG ou WebP, 10 Mo au plus chacune : le recto, et le verso s’il y en a un.',
  'verify.selfie': 'Selfie',
  'verify.selfie_hint': 'Facultatif. Une photo de votre visage, 10 Mo au plus.',
  'verify.submit': 'Envoyer',
  'verify.verified_title': 'Identité vérifiée',
  'verify.verified': 'Votre identité est vérifiée. Vous pouvez revenir à l’application.',
  'verify.rejected_title': 'Vérification refusée',
  'verify.rejected':
    'Vos documents n’ont pas pu être acceptés. L’application vous dira pourquoi ; vous pourrez réessayer depuis celle-ci.',
  'verify.pending_title': 'Merci',
  'verify.pending':
    'Vos documents ont été envoyés et seront examinés. Vous pouvez revenir à l’application ; elle affichera le résultat.',
  'verify.unknown_title': 'Lien non valide',
  'verify.unknown':
    'Ce lien de vérification n’est pas valide. Recommencez la vérification depuis l’application.',
  'verify.expired_title': 'Lien expiré',
  'verify.expired':
    'Ce lien de vérification a expiré (les liens durent 30 minutes). Recommencez depuis l’application.',
  'verify.used_title': 'Lien déjà utilisé',
  'verify.used':
    'Ce lien de vérification a déjà été utilisé. Revenez à l’application pour voir où vous en êtes.',
  'verify.too_many_title': 'Trop de tentatives',
  'verify.too_many': 'Trop de tentatives depuis votre réseau. Patientez une minute et réessayez.',
  'verify.failed_title': 'Un problème est survenu',
  'verify.failed':
    'Un problème est survenu de notre côté. Votre lien fonctionne toujours : réessayez dans un instant.',
  'verify.unreadable_title': 'Formulaire non accepté',
  'verify.unreadable':
    'Le formulaire n’a pas pu être lu. Revenez en arrière, vérifiez les photos et réessayez.',
  'verify.error.country': 'Choisissez votre pays.',
  'verify.error.birthday_format': 'Saisissez votre date de naissance au format AAAA-MM-JJ.',
  'verify.error.birthday_unreal': 'Saisissez votre vraie date de naissance.',
  'verify.error.underage': 'Vous devez avoir au moins 18 ans pour vérifier votre identité.',
  'verify.error.document_kind': 'Choisissez le type de votre document.',
  'verify.error.document_missing': 'Ajoutez une photo de votre document.',
  'verify.error.documents_too_many': 'Ajoutez au plus deux photos du document : recto et verso.',
  'verify.error.selfies_too_many': 'Ajoutez un seul selfie.',
  'verify.error.files_too_many': 'Ajoutez au plus deux photos du document et un selfie.',
  'verify.error.photo_too_large': 'Chaque photo doit faire 10 Mo au plus.',
  'verify.error.photo_type': 'Les photos doivent être des images JPEG, PNG ou WebP.',
  'verify.error.photo_pixels': 'Cette photo a trop de pixels (60 mégapixels au plus).',
  'verify.error.form_unreadable': 'Le formulaire n’a pas pu être lu. Envoyez-le à nouveau.',
  'verify.error.form_expired': 'Ce formulaire a expiré ou ne vient pas de cette page. Réessayez.',
  'verify.error.not_multipart': 'Envoyez le formulaire tel qu’il apparaît sur cette page.',
};
