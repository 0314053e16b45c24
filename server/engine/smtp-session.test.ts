/**
 * ReplyParser and openSmtpSession: SMTP replies however they are split, and one command at a time.
 */
import { describe, expect, it } from 'vitest';
import { useScriptedSmtp } from '../testing/scripted-smtp';
import { openSmtpSession, ReplyParser, SmtpFailure } from './smtp-session';

describe('ReplyParser', () => {
  it('joins multi-line replies and reads the enhanced code', () => {
    const parser = new ReplyParser();
    expect(parser.push('250-mx.example greets you\r\n250-PIPELINING\r\n')).toEqual([]);
    expect(parser.push('250 SMTPUTF8\r\n550 5.1.1 No such user\r\n')).toEqual([
      { code: 250, enhanced: null, text: 'mx.example greets you PIPELINING SMTPUTF8' },
      { code: 550, enhanced: '5.1.1', text: '5.1.1 No such user' },
    ]);
  });

  it('handles replies split anywhere, bare LF and a code without text', () => {
    const parser = new ReplyParser();
    expect(parser.push('45')).toEqual([]);
    expect(parser.push('1 4.7.1 Greylisted\n2')).toEqual([
      { code: 451, enhanced: '4.7.1', text: '4.7.1 Greylisted' },
    ]);
    expect(parser.push('21\r\n')).toEqual([{ code: 221, enhanced: null, text: '' }]);
  });

  it('refuses lines that are not SMTP replies', () => {
    expect(() => new ReplyParser().push('HTTP/1.1 400 Bad Request\r\n')).toThrow(SmtpFailure);
  });
});

const scripted = useScriptedSmtp();

describe('openSmtpSession', () => {
  it('reads the greeting, sends commands one at a time and quits', async () => {
    const server = await scripted('220-mx.example\r\n220 ready\r\n', (line) =>
      line === 'QUIT' ? '221 bye\r\n' : '250 ok\r\n',
    );
    const session = await openSmtpSession('127.0.0.1', server.port, 500);
    expect(session.greeting).toEqual({ code: 220, enhanced: null, text: 'mx.example ready' });
    expect(await session.command('EHLO me')).toMatchObject({ code: 250 });
    await session.quit();
    expect(server.lines).toEqual(['EHLO me', 'QUIT']);
  });

  it('refuses to send a command with a line break in it', async () => {
    const server = await scripted('220 ready\r\n', () => '250 ok\r\n');
    const session = await openSmtpSession('127.0.0.1', server.port, 500);
    await expect(session.command('RCPT TO:<a@b.test>\r\nDATA')).rejects.toMatchObject({ kind: 'protocol' });
    await session.quit();
    expect(server.lines).toEqual(['QUIT']);
  });

  it('fails with kind "timeout" when a command gets no answer', async () => {
    const server = await scripted('220 ready\r\n', () => '');
    const session = await openSmtpSession('127.0.0.1', server.port, 200);
    await expect(session.command('NOOP')).rejects.toMatchObject({ kind: 'timeout' });
    await expect(session.command('NOOP')).rejects.toBeInstanceOf(SmtpFailure);
    await session.quit();
  });

  it('fails with kind "closed" when the server drops the connection', async () => {
    const server = await scripted('220 ready\r\n', () => null);
    const session = await openSmtpSession('127.0.0.1', server.port, 500);
    await expect(session.command('EHLO me')).rejects.toMatchObject({ kind: 'closed' });
  });

  it('fails with kind "connect" on a closed port', async () => {
    const server = await scripted('220 ready\r\n', () => '250 ok\r\n');
    await server.close();
    await expect(openSmtpSession('127.0.0.1', server.port, 500)).rejects.toMatchObject({ kind: 'connect' });
  });
});
