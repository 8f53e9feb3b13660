import { html } from '../html.js';

// Signing in and setting a password (src/web/pages/auth.ts): the pages of a signed-out visitor.
export const auth = {
  signInTitle: 'Sign in',
  email: 'E-mail address',
  password: 'Password',
  signIn: 'Sign in',
  signInHint:
    'No account yet? Use the invitation link an administrator of your organization gave you. Forgot your password? Ask the operator of this service for a password link.',
  // Same words whatever was wrong: no telling whether an address has an account.
  signInFailed: 'The e-mail address or the password is not right.',
  formExpired: 'The form has expired. Try again.',
  tooManySignIns: 'Too many failed sign-ins. Wait a few minutes and try again.',
  tooManyAttempts: 'Too many failed attempts. Wait a few minutes and try again.',
  join: (organization: string) => `Join ${organization}`,
  setYourPassword: 'Set your password',
  invited: (organization: string, role: string, email: string) =>
    html`You are invited to <strong>${organization}</strong> as ${role}, as <strong>${email}</strong>.`,
  existingPasswordHint:
    'If this address already has a password here, enter that password in both fields: you join with it. Otherwise choose one.',
  forEmail: (email: string) => html`For <strong>${email}</strong>.`,
  newPassword: 'New password',
  atLeast: (count: number) => `At least ${count} characters.`,
  repeatPassword: 'Repeat the password',
  joinAndSignIn: 'Join and sign in',
  setAndSignIn: 'Set password and sign in',
  goToSignIn: 'Go to sign in',
  linkNotValid: 'This link is not valid any more. Ask an administrator for a new one.',
  passwordsDiffer: 'The two passwords are not the same.',
  joined: 'You have joined the organization. You are signed in.',
  passwordSet: 'Your password is set. You are signed in.',
  // The languages offered on the sign-in page.
  language: 'Language',
};
