// Reading PEM certificates and keys: an uploaded pair is checked here before it is stored.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { ValidationError } from '../errors.js';

export interface CertificateFacts {
  expiresAt: string;
  issuer: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The leaf (the first certificate of the chain), or null when the text holds none that reads. */
export function leafCertificate(chainPem: string): X509Certificate | null {
  const first = chainPem.match(PEM_BLOCK)?.[0];
  if (!first) return null;
  try {
    return new X509Certificate(first);
  } catch {
    return null;
  }
}

export function certificateFacts(chainPem: string): CertificateFacts | null {
  const leaf = leafCertificate(chainPem);
  if (!leaf) return null;
  const issuer = /(?:^|\n)CN=([^\n]+)/.exec(leaf.issuer)?.[1] ?? leaf.issuer.split('\n')[0] ?? '';
  return { expiresAt: new Date(leaf.validTo).toISOString(), issuer };
}

/**
 * An operator's own certificate for `asciiName`, checked: it reads, it is for that name, it has not
 * expired, and the key is its own. Each problem is a 400 on its field.
 */
export function checkUpload(
  asciiName: string,
  certificatePem: string,
  keyPem: string,
  now = new Date(),
): CertificateFacts {
  const leaf = leafCertificate(certificatePem);
  if (!leaf) throw new ValidationError({ certificate: ['This is not a PEM certificate.'] });
  let key: KeyObject;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new ValidationError({ key: ['This is not an unencrypted PEM private key.'] });
  }
  if (!leaf.checkPrivateKey(key)) throw new ValidationError({ key: ['This key does not match the certificate.'] });
  if (leaf.checkHost(asciiName) === undefined) {
    throw new ValidationError({ certificate: [`This certificate is not for ${asciiName}.`] });
  }
  if (new Date(leaf.validTo).getTime() <= now.getTime()) {
    throw new ValidationError({ certificate: ['This certificate has expired.'] });
  }
  return certificateFacts(certificatePem)!;
}
