import { Skeleton } from '@mantine/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** `value` as a QR code image, drawn in the browser (the secret never leaves the page). */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { width: size, margin: 2, errorCorrectionLevel: 'M' }).then(
      (made) => live && setUrl(made),
      () => live && setUrl(null),
    );
    return () => {
      live = false;
    };
  }, [value, size]);
  return url ? <img src={url} alt={label} width={size} height={size} style={{ background: '#fff' }} /> : <Skeleton width={size} height={size} aria-label="Drawing the QR code" />;
}
