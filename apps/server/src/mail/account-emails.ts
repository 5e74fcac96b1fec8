import { DEFAULT_LANGUAGE, type Language, RTL_LANGUAGES } from '@switchyard/domain';
import type { MailMessage } from './mailer.js';

// The account emails, in the recipient's language: a plain-text body and an HTML body saying the same.

export type AccountEmailKind = 'invitation' | 'emailVerification' | 'passwordReset' | 'alreadyRegistered';

interface EmailText {
  subject: string;
  /** Paragraphs before the link; `{name}` and `{inviter}` are filled in. */
  paragraphs: string[];
  action: string;
  /** After the link: how long it works, and what to do if it was not expected. */
  footer: string;
}

const TEXTS: Record<Language, Record<AccountEmailKind, EmailText>> = {
  en: {
    invitation: {
      subject: 'You are invited to Switchyard',
      paragraphs: ['Hello,', '{inviter} invited you to join their team on Switchyard.'],
      action: 'Accept the invitation',
      footer: 'The link works once and expires in 7 days. If you did not expect this invitation, ignore this email.',
    },
    emailVerification: {
      subject: 'Confirm your email address',
      paragraphs: ['Hello {name},', 'Confirm your email address to finish creating your Switchyard account.'],
      action: 'Confirm my email address',
      footer: 'The link works once and expires in 2 days. If you did not create an account, ignore this email.',
    },
    passwordReset: {
      subject: 'Choose a new Switchyard password',
      paragraphs: ['Hello {name},', 'Someone asked to reset the password of your Switchyard account.'],
      action: 'Choose a new password',
      footer:
        'The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays the same.',
    },
    alreadyRegistered: {
      subject: 'Your Switchyard account',
      paragraphs: [
        'Hello {name},',
        'Someone tried to register a new Switchyard account with this email address, which already has one.',
      ],
      action: 'Log in or reset your password',
      footer: 'If it was not you, ignore this email: nothing has changed.',
    },
  },
  fr: {
    invitation: {
      subject: 'Vous êtes invité sur Switchyard',
      paragraphs: ['Bonjour,', '{inviter} vous invite à rejoindre son équipe sur Switchyard.'],
      action: 'Accepter l’invitation',
      footer:
        'Le lien ne fonctionne qu’une fois et expire dans 7 jours. Si vous n’attendiez pas cette invitation, ignorez ce message.',
    },
    emailVerification: {
      subject: 'Confirmez votre adresse e-mail',
      paragraphs: [
        'Bonjour {name},',
        'Confirmez votre adresse e-mail pour terminer la création de votre compte Switchyard.',
      ],
      action: 'Confirmer mon adresse e-mail',
      footer:
        'Le lien ne fonctionne qu’une fois et expire dans 2 jours. Si vous n’avez pas créé de compte, ignorez ce message.',
    },
    passwordReset: {
      subject: 'Choisissez un nouveau mot de passe Switchyard',
      paragraphs: [
        'Bonjour {name},',
        'Quelqu’un a demandé à réinitialiser le mot de passe de votre compte Switchyard.',
      ],
      action: 'Choisir un nouveau mot de passe',
      footer:
        'Le lien ne fonctionne qu’une fois et expire dans 1 heure. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste le même.',
    },
    alreadyRegistered: {
      subject: 'Votre compte Switchyard',
      paragraphs: [
        'Bonjour {name},',
        'Quelqu’un a essayé de créer un compte Switchyard avec cette adresse e-mail, qui en possède déjà un.',
      ],
      action: 'Se connecter ou réinitialiser le mot de passe',
      footer: 'Si ce n’était pas vous, ignorez ce message : rien n’a changé.',
    },
  },
  es: {
    invitation: {
      subject: 'Te han invitado a Switchyard',
      paragraphs: ['Hola:', '{inviter} te ha invitado a unirte a su equipo en Switchyard.'],
      action: 'Aceptar la invitación',
      footer:
        'El enlace funciona una sola vez y caduca en 7 días. Si no esperabas esta invitación, ignora este correo.',
    },
    emailVerification: {
      subject: 'Confirma tu dirección de correo',
      paragraphs: ['Hola, {name}:', 'Confirma tu dirección de correo para terminar de crear tu cuenta de Switchyard.'],
      action: 'Confirmar mi dirección de correo',
      footer: 'El enlace funciona una sola vez y caduca en 2 días. Si no has creado una cuenta, ignora este correo.',
    },
    passwordReset: {
      subject: 'Elige una nueva contraseña de Switchyard',
      paragraphs: ['Hola, {name}:', 'Alguien ha pedido restablecer la contraseña de tu cuenta de Switchyard.'],
      action: 'Elegir una nueva contraseña',
      footer:
        'El enlace funciona una sola vez y caduca en 1 hora. Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.',
    },
    alreadyRegistered: {
      subject: 'Tu cuenta de Switchyard',
      paragraphs: [
        'Hola, {name}:',
        'Alguien ha intentado registrar una cuenta de Switchyard con esta dirección de correo, que ya tiene una.',
      ],
      action: 'Iniciar sesión o restablecer la contraseña',
      footer: 'Si no has sido tú, ignora este correo: no ha cambiado nada.',
    },
  },
  zh: {
    invitation: {
      subject: '您受邀加入 Switchyard',
      paragraphs: ['您好：', '{inviter} 邀请您加入其在 Switchyard 上的团队。'],
      action: '接受邀请',
      footer: '此链接只能使用一次，7 天后失效。如果您没有预期收到此邀请，请忽略本邮件。',
    },
    emailVerification: {
      subject: '请确认您的邮箱地址',
      paragraphs: ['{name}，您好：', '请确认您的邮箱地址，以完成 Switchyard 账户的创建。'],
      action: '确认我的邮箱地址',
      footer: '此链接只能使用一次，2 天后失效。如果您没有创建账户，请忽略本邮件。',
    },
    passwordReset: {
      subject: '设置新的 Switchyard 密码',
      paragraphs: ['{name}，您好：', '有人请求重置您 Switchyard 账户的密码。'],
      action: '设置新密码',
      footer: '此链接只能使用一次，1 小时后失效。如果这不是您本人的请求，请忽略本邮件：您的密码不会改变。',
    },
    alreadyRegistered: {
      subject: '您的 Switchyard 账户',
      paragraphs: ['{name}，您好：', '有人尝试使用此邮箱地址注册新的 Switchyard 账户，但该地址已有账户。'],
      action: '登录或重置密码',
      footer: '如果这不是您本人，请忽略本邮件：一切都没有改变。',
    },
  },
  ar: {
    invitation: {
      subject: 'تمت دعوتك إلى Switchyard',
      paragraphs: ['مرحبًا،', 'دعاك {inviter} للانضمام إلى فريقه على Switchyard.'],
      action: 'قبول الدعوة',
      footer: 'يعمل الرابط مرة واحدة وتنتهي صلاحيته بعد 7 أيام. إذا لم تكن تتوقع هذه الدعوة فتجاهل هذه الرسالة.',
    },
    emailVerification: {
      subject: 'أكّد عنوان بريدك الإلكتروني',
      paragraphs: ['مرحبًا {name}،', 'أكّد عنوان بريدك الإلكتروني لإكمال إنشاء حسابك على Switchyard.'],
      action: 'تأكيد عنوان بريدي الإلكتروني',
      footer: 'يعمل الرابط مرة واحدة وتنتهي صلاحيته بعد يومين. إذا لم تنشئ حسابًا فتجاهل هذه الرسالة.',
    },
    passwordReset: {
      subject: 'اختر كلمة مرور جديدة لـ Switchyard',
      paragraphs: ['مرحبًا {name}،', 'طلب أحدهم إعادة تعيين كلمة مرور حسابك على Switchyard.'],
      action: 'اختيار كلمة مرور جديدة',
      footer:
        'يعمل الرابط مرة واحدة وتنتهي صلاحيته بعد ساعة. إذا لم تطلب ذلك فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
    },
    alreadyRegistered: {
      subject: 'حسابك على Switchyard',
      paragraphs: ['مرحبًا {name}،', 'حاول أحدهم تسجيل حساب جديد على Switchyard بعنوان البريد هذا، وله حساب بالفعل.'],
      action: 'تسجيل الدخول أو إعادة تعيين كلمة المرور',
      footer: 'إذا لم تكن أنت فتجاهل هذه الرسالة: لم يتغير شيء.',
    },
  },
};

export interface AccountEmail {
  kind: AccountEmailKind;
  to: string;
  language: string | null | undefined;
  link: string;
  /** The recipient's name, if known. */
  name?: string;
  /** Invitations: who sent it. */
  inviter?: string;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function languageOf(value: string | null | undefined): Language {
  return value && value in TEXTS ? (value as Language) : DEFAULT_LANGUAGE;
}

/** The message for one account email, in the recipient's language (English when unknown). */
export function accountEmail(email: AccountEmail): MailMessage {
  const language = languageOf(email.language);
  const text = TEXTS[language][email.kind];
  const fill = (template: string, encode: (value: string) => string) =>
    template
      .replaceAll('{name}', encode(email.name?.trim() || email.to))
      .replaceAll('{inviter}', encode(email.inviter?.trim() || 'Switchyard'));
  const plain = [
    ...text.paragraphs.map((paragraph) => fill(paragraph, (value) => value)),
    `${text.action}:\n${email.link}`,
    text.footer,
  ].join('\n\n');
  const dir = RTL_LANGUAGES.includes(language) ? 'rtl' : 'ltr';
  const href = escapeHtml(email.link);
  const html = [
    `<!doctype html><html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(text.subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">',
    ...text.paragraphs.map((paragraph) => `<p>${fill(escapeHtml(paragraph), escapeHtml)}</p>`),
    `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(text.action)}</a></p>`,
    `<p style="font-size:13px;color:#6b7280">${href}</p>`,
    `<p style="font-size:13px;color:#6b7280">${escapeHtml(text.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: email.to, subject: text.subject, text: plain, html };
}
