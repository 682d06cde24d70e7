// The verification mail, in Korean. Only server values go in headers: the recipient was
// validated (no spaces, control characters or angle brackets) and the subject is constant.
import type { MailMessage } from '../mail/mailer';

export const VERIFICATION_SUBJECT = "[Let's Chat] 이메일 인증번호 안내";

export function verificationMail(to: string, code: string, validMinutes: number): MailMessage {
  return {
    to,
    subject: VERIFICATION_SUBJECT,
    text:
      `Let's Chat 회원가입 인증번호는 ${code} 입니다.\n` +
      `인증번호는 ${validMinutes}분 동안 유효합니다.\n\n` +
      '본인이 요청하지 않았다면 이 메일을 무시해주세요.\n',
    html:
      `<p>Let's Chat 회원가입 인증번호는 <strong style="font-size:1.4em;letter-spacing:0.2em">${code}</strong> 입니다.</p>` +
      `<p>인증번호는 ${validMinutes}분 동안 유효합니다.</p>` +
      '<p>본인이 요청하지 않았다면 이 메일을 무시해주세요.</p>',
  };
}
