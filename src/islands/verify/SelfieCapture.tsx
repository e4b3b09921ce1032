/**
 * The selfie of /verify (VER-01): the camera (getUserMedia, the front camera on a phone) with a live
 * preview, a picture taken from it, looked at, and sent with the pose asked (the `$selfieSend` store).
 * Where there is no camera, or the member refuses it, the form's file input (rendered by the server,
 * `capture="user"` opens the camera app on a phone) posts the picture to /verify as it does without
 * JavaScript.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $selfieSend, sendSelfie } from '../../stores/verification';
import type { VerificationPose } from '../../shared/verification';

export interface SelfieCaptureProps {
  messages: Messages;
  pose: VerificationPose;
}

type Camera = 'off' | 'starting' | 'live' | 'taken' | 'unavailable';

export default function SelfieCapture({ messages, pose }: SelfieCaptureProps) {
  const t = createClientTranslator(messages, 'verification');
  const send = useStore($selfieSend);
  const [camera, setCamera] = useState<Camera>('off');
  const [supported, setSupported] = useState(false);
  const [picture, setPicture] = useState<{ blob: Blob; url: string } | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);

  const stop = () => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
  };

  useEffect(() => {
    // The server renders no camera button (it cannot know the browser's camera): hydration first, then this browser's answer.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSupported(typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function');
    return stop;
  }, []);

  const start = async () => {
    setCamera('starting');
    if (picture) URL.revokeObjectURL(picture.url);
    setPicture(null);
    try {
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 960 } }, audio: false });
      setCamera('live');
    } catch {
      stop();
      setCamera('unavailable');
    }
  };

  // The video element exists once the state is 'live'.
  useEffect(() => {
    if (camera === 'live' && video.current && stream.current) {
      video.current.srcObject = stream.current;
      void video.current.play().catch(() => undefined);
    }
  }, [camera]);

  const take = () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        stop();
        setPicture({ blob, url: URL.createObjectURL(blob) });
        setCamera('taken');
      },
      'image/jpeg',
      0.9,
    );
  };

  /** The refusal in words; a code without a text (a network failure) says the generic one. */
  const errorText = (code: string) => {
    const text = t(`errors:${code}`);
    return text === `errors:${code}` ? t('errors:internal_error') : text;
  };

  const submit = async () => {
    if (!picture) return;
    if (await sendSelfie(picture.blob, pose)) window.location.assign('/verify?sent=1');
  };

  if (!supported) return null;
  return (
    <div className="selfie-capture mb-3" data-selfie-capture data-camera={camera}>
      {camera === 'off' && (
        <button type="button" className="btn btn-primary" onClick={() => void start()} data-camera-start>
          {t('camera_start')}
        </button>
      )}
      {camera === 'starting' && (
        <p role="status" className="mb-0">
          {t('camera_starting')}
        </p>
      )}
      {camera === 'unavailable' && (
        <p role="alert" className="text-danger" data-camera-unavailable>
          {t('camera_unavailable')}
        </p>
      )}
      {camera === 'live' && (
        <div>
          <video ref={video} className="selfie-video rounded border" playsInline muted aria-label={t('camera_preview')} data-camera-video />
          <div className="mt-2">
            <button type="button" className="btn btn-primary" onClick={take} data-camera-take>
              {t('camera_take')}
            </button>
          </div>
        </div>
      )}
      {camera === 'taken' && picture && (
        <div>
          <img className="selfie-video rounded border" src={picture.url} alt={t('your_selfie')} data-selfie-preview />
          <div className="d-flex flex-wrap gap-2 mt-2">
            <button type="button" className="btn btn-primary" onClick={() => void submit()} disabled={send.sending} aria-busy={send.sending} data-selfie-send>
              {send.sending ? t('sending') : t('send')}
            </button>
            <button type="button" className="btn btn-outline-secondary" onClick={() => void start()} disabled={send.sending} data-camera-retake>
              {t('camera_retake')}
            </button>
          </div>
        </div>
      )}
      {send.error && (
        <p role="alert" className="text-danger mt-2" data-selfie-error={send.error}>
          {errorText(send.error)}
        </p>
      )}
    </div>
  );
}
