import { expect } from 'chai';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Attachment } from '@common/api';
import { koVoice, clock } from './koVoice';
import VoicePlayer from './VoicePlayer';

const voice: Attachment = {
  attachmentId: 'a'.repeat(22), name: '음성 메시지.webm', size: 1000, contentType: 'audio/webm', url: `/api/attachments/${'a'.repeat(22)}`,
  kind: 'voice', durationMs: 65_000, waveform: Array.from({ length: 64 }, (_, i) => i * 4),
};

describe('the voice message player', () => {
  afterEach(() => cleanup());

  it('shows the length, 64 bars, and cycles the speed 1× → 1.5× → 2× → 1× on the audio element', () => {
    render(<VoicePlayer attachment={voice} />);
    expect(screen.getByTestId('voice-time').textContent).to.equal('1:05');
    expect(screen.getByTestId('voice-wave').children).to.have.length(64);
    const audio = screen.getByTestId('voice-audio') as HTMLAudioElement;
    fireEvent.click(screen.getByRole('button', { name: koVoice.speed(1) }));
    expect(audio.playbackRate).to.equal(1.5);
    fireEvent.click(screen.getByRole('button', { name: koVoice.speed(1.5) }));
    expect(audio.playbackRate).to.equal(2);
    fireEvent.click(screen.getByRole('button', { name: koVoice.speed(2) }));
    expect(audio.playbackRate).to.equal(1);
  });

  it('seeks by keyboard on the waveform slider: arrows by 5 s, End and Home, within the length', () => {
    render(<VoicePlayer attachment={voice} />);
    const audio = screen.getByTestId('voice-audio') as HTMLAudioElement;
    const slider = screen.getByRole('slider', { name: koVoice.position });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(audio.currentTime).to.equal(5);
    expect(slider.getAttribute('aria-valuetext')).to.equal('0:05 / 1:05');
    fireEvent.keyDown(slider, { key: 'End' });
    expect(audio.currentTime).to.equal(65);
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(audio.currentTime).to.equal(65);
    fireEvent.keyDown(slider, { key: 'Home' });
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(audio.currentTime).to.equal(0);
  });

  it('writes lengths as m:ss', () => {
    expect(clock(0)).to.equal('0:00');
    expect(clock(59_999)).to.equal('0:59');
    expect(clock(300_000)).to.equal('5:00');
  });
});
