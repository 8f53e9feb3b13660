import { html } from '../html.js';
import type { Texts } from '../types.js';

export const auth: Texts['auth'] = {
  signInTitle: 'Logg inn',
  email: 'E-postadresse',
  password: 'Passord',
  signIn: 'Logg inn',
  signInHint:
    'Har du ikke konto? Bruk invitasjonslenken en administrator i organisasjonen din har gitt deg. Glemt passordet? Be den som driver tjenesten om en passordlenke.',
  signInFailed: 'E-postadressen eller passordet er ikke riktig.',
  formExpired: 'Skjemaet er utløpt. Prøv igjen.',
  tooManySignIns: 'For mange mislykkede innlogginger. Vent noen minutter og prøv igjen.',
  tooManyAttempts: 'For mange mislykkede forsøk. Vent noen minutter og prøv igjen.',
  join: (organization: string) => `Bli med i ${organization}`,
  setYourPassword: 'Velg passord',
  invited: (organization: string, role: string, email: string) =>
    html`Du er invitert til <strong>${organization}</strong> med rollen ${role}, som <strong>${email}</strong>.`,
  existingPasswordHint:
    'Har denne adressen allerede et passord her, skriver du det passordet i begge feltene: da blir du med med det. Ellers velger du et nytt.',
  forEmail: (email: string) => html`For <strong>${email}</strong>.`,
  newPassword: 'Nytt passord',
  atLeast: (count: number) => `Minst ${count} tegn.`,
  repeatPassword: 'Gjenta passordet',
  joinAndSignIn: 'Bli med og logg inn',
  setAndSignIn: 'Lagre passord og logg inn',
  goToSignIn: 'Gå til innlogging',
  linkNotValid: 'Denne lenken er ikke gyldig lenger. Be en administrator om en ny.',
  passwordsDiffer: 'De to passordene er ikke like.',
  joined: 'Du er med i organisasjonen. Du er logget inn.',
  passwordSet: 'Passordet er lagret. Du er logget inn.',
  language: 'Språk',
};
