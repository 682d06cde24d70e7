// REST routes for e-mail verification and sign-up: public, since nobody is signed in yet.
import { api, type SignUpResponse } from '@common/api';
import { LIMITS } from '@common/rules';
import type { Route } from '../../transport/route';
import { MAX_PASSWORD_LENGTH } from './passwords';
import { parseCode } from './verification-code';
import type { VerificationService } from './verification-service';
import { objectBody, stringField } from '../request-fields';

// Addresses longer than this are refused as invalid by the rule itself; the field check
// only bounds the work.
const MAX_EMAIL_FIELD = LIMITS.loginInput;

export function verificationRoutes(verification: VerificationService): Route[] {
  return [
    {
      method: 'POST',
      path: api.verificationSend,
      public: true,
      async handle(ctx) {
        const email = stringField(objectBody(ctx.body).email, 'email', MAX_EMAIL_FIELD);
        await verification.sendCode(email, ctx.remoteAddress);
        return { json: { status: 'sent' } };
      },
    },
    {
      method: 'POST',
      path: api.verificationVerify,
      public: true,
      async handle(ctx) {
        const body = objectBody(ctx.body);
        const email = stringField(body.email, 'email', MAX_EMAIL_FIELD);
        await verification.verifyCode(email, parseCode(body.code));
        return { json: { status: 'verified' } };
      },
    },
    {
      method: 'POST',
      path: api.signUp,
      public: true,
      async handle(ctx) {
        const body = objectBody(ctx.body);
        const user = await verification.signUp({
          email: stringField(body.email, 'email', MAX_EMAIL_FIELD),
          name: stringField(body.name, 'name', LIMITS.name),
          password: stringField(body.password, 'password', MAX_PASSWORD_LENGTH),
        });
        const json: SignUpResponse = { name: user.name };
        return { json };
      },
    },
  ];
}
