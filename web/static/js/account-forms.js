// The account box's forms, each a function of the account as last known
// (cur: {name, guest, email, mail}) that describes its dialog: the title,
// a note, the fields (an input each: id, name, label, type, autocomplete,
// hint, value, optional), the button and what it posts, and what to say
// once the server agrees (done), or what to show in the dialog instead of
// closing it (after). account.js draws and sends them.

import { t, getLang } from './i18n.js';

const pwField = (label, autocomplete) => ({ id: 'account-password', name: 'password', label, type: 'password', autocomplete });

function signup() {
  return {
    title: t('acc.signup'),
    note: t('acc.signupNote'),
    fields: [
      { id: 'account-name', name: 'name', label: t('acc.name'), type: 'text', autocomplete: 'username', hint: t('acc.nameHint') },
      { ...pwField(t('acc.pw'), 'new-password'), hint: t('acc.pwHint') },
      { id: 'account-email', name: 'email', label: t('acc.emailOptional'), type: 'email', autocomplete: 'email', hint: t('acc.emailHint'), optional: true },
    ],
    submit: t('acc.signup'),
    busy: t('acc.signingUp'),
    path: '/api/account/signup',
    body: (v) => ({ name: v.name, password: v.password, email: v.email.trim() }),
    done: (a) => t('acc.welcome', { name: a.name }),
    other: [t('acc.haveAccount'), t('acc.login'), 'login'],
  };
}

function login() {
  return {
    title: t('acc.login'),
    fields: [
      { id: 'account-name', name: 'name', label: t('acc.name'), type: 'text', autocomplete: 'username' },
      pwField(t('acc.pw'), 'current-password'),
    ],
    submit: t('acc.login'),
    busy: t('acc.loggingIn'),
    path: '/api/account/login',
    body: (v) => ({ name: v.name, password: v.password }),
    done: (a) => t('acc.loggedIn', { name: a.name }),
    forgot: true,
    other: [t('acc.noAccount'), t('acc.signup'), 'signup'],
  };
}

function password() {
  return {
    title: t('acc.password'),
    note: t('acc.passwordNote'),
    fields: [
      pwField(t('acc.currentPw'), 'current-password'),
      { id: 'account-new-password', name: 'new_password', label: t('acc.newPw'), type: 'password', autocomplete: 'new-password', hint: t('acc.pwHint') },
      { id: 'account-new-password2', name: 'repeat', label: t('acc.newPw2'), type: 'password', autocomplete: 'new-password' },
    ],
    submit: t('acc.password'),
    busy: t('acc.changing'),
    path: '/api/account/password',
    body: (v) => ({ password: v.password, new_password: v.new_password }),
    done: () => t('acc.passwordDone'),
  };
}

function email(cur) {
  const now = cur && cur.email ? t('acc.emailNow', { email: cur.email }) : t('acc.emailNone');
  return {
    title: t('acc.email'),
    note: now + ' ' + t('acc.emailHint') + (cur && !cur.mail ? ' ' + t('acc.emailNoMail') : ''),
    fields: [
      { id: 'account-email', name: 'email', label: t('acc.email'), type: 'email', autocomplete: 'email', value: (cur && cur.email) || '', optional: true },
      pwField(t('acc.currentPw'), 'current-password'),
    ],
    submit: t('acc.emailSave'),
    busy: t('acc.saving'),
    path: '/api/account/email',
    body: (v) => ({ email: v.email.trim(), password: v.password }),
    done: (a) => (a.email ? t('acc.emailDone', { email: a.email }) : t('acc.emailCleared')),
  };
}

function forgot(cur) {
  if (cur && !cur.mail) {
    // The site sends no mail: only its operator makes the links.
    return { title: t('acc.forgotTitle'), note: t('err.mail_off'), fields: [] };
  }
  return {
    title: t('acc.forgotTitle'),
    note: t('acc.forgotNote'),
    fields: [{ id: 'account-who', name: 'who', label: t('acc.nameOrEmail'), type: 'text', autocomplete: 'username' }],
    submit: t('acc.sendLink'),
    busy: t('acc.sending'),
    path: '/api/account/forgot',
    body: (v) => ({ who: v.who.trim(), lang: getLang() }),
    after: () => t('acc.forgotSent'),
  };
}

function erase() {
  return {
    title: t('acc.delete'),
    note: t('acc.deleteNote'),
    fields: [pwField(t('acc.currentPw'), 'current-password')],
    submit: t('acc.deleteSubmit'),
    danger: true,
    busy: t('acc.deleting'),
    path: '/api/account/delete',
    body: (v) => ({ password: v.password }),
    done: () => t('acc.deleted'),
  };
}

/** The forms by kind. */
export const FORMS = { signup, login, password, email, forgot, delete: erase };
