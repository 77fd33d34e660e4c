package invoicing.interop.phase4;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.helger.phase4.crypto.AS4CryptoFactoryInMemoryKeyStore;
import com.helger.phase4.crypto.IAS4CryptoFactory;
import com.helger.phase4.incoming.mgr.AS4ProfileSelector;
import com.helger.phase4.mgr.MetaAS4Manager;
import com.helger.phase4.profile.peppol.AS4PeppolProfileRegistarSPI;
import com.helger.security.certificate.TrustedCAChecker;
import com.helger.security.revocation.CertificateRevocationCheckerDefaults;
import com.helger.security.revocation.ERevocationCheckMode;
import com.helger.servlet.mock.MockServletContext;
import com.helger.web.scope.mgr.WebScopeManager;

/**
 * What the receiver and the sender share: phase4's global state, and this access point's keys and
 * trust, all from the test PKI's PKCS#12 files (no configuration files, no data folder).
 */
final class AccessPointSetup
{
  static final String PROFILE_ID = AS4PeppolProfileRegistarSPI.AS4_PROFILE_ID;

  /**
   * The JDK's XML signature code warns through java.util.logging, once per message, that the
   * attachment references have no input bytes: they are digested by the attachment transform
   * instead, which is how AS4 signs attachments. Held here, as the logging API keeps loggers weakly.
   */
  private static final Logger XML_DSIG_LOGGER = Logger.getLogger ("org.apache.jcp.xml.dsig.internal.dom");
  private static boolean s_bInitialised;

  final IAS4CryptoFactory m_aCryptoFactory;
  final X509Certificate m_aOwnCertificate;
  /** The CA(s) whose certificates count as Peppol AP certificates: the test PKI's AP CA. */
  final TrustedCAChecker m_aAPCAChecker;

  private AccessPointSetup (final IAS4CryptoFactory aCryptoFactory,
                            final X509Certificate aOwnCertificate,
                            final TrustedCAChecker aAPCAChecker)
  {
    m_aCryptoFactory = aCryptoFactory;
    m_aOwnCertificate = aOwnCertificate;
    m_aAPCAChecker = aAPCAChecker;
  }

  /** phase4's global state, once per JVM. */
  static synchronized void initGlobal ()
  {
    if (s_bInitialised)
      return;
    s_bInitialised = true;
    // phase4 keeps its managers (duplicate detection, P-Modes) in global-scope singletons; its
    // in-memory default needs no data folder.
    XML_DSIG_LOGGER.setLevel (Level.SEVERE);
    WebScopeManager.onGlobalBegin (MockServletContext.create ());
    MetaAS4Manager.getInstance ();
    // The test PKI has no OCSP responder or CRL, and this machine no network to reach one: the
    // certificates' issuer, signature and validity are still checked.
    CertificateRevocationCheckerDefaults.setRevocationCheckMode (ERevocationCheckMode.NONE);
    AS4ProfileSelector.setCustomDefaultAS4ProfileID (PROFILE_ID);
  }

  static AccessPointSetup fromOptions (final Options aOptions) throws Exception
  {
    initGlobal ();
    final char [] aPassword = aOptions.optional ("password", "test-pki").toCharArray ();
    final String sKeyAlias = aOptions.optional ("key-alias", "ap");
    final KeyStore aKeyStore = load (Path.of (aOptions.required ("keystore")), aPassword);
    final KeyStore aTrustStore = load (Path.of (aOptions.required ("truststore")), aPassword);
    final X509Certificate aOwnCert = (X509Certificate) aKeyStore.getCertificate (sKeyAlias);
    if (aOwnCert == null)
      throw new IllegalArgumentException ("no entry '" + sKeyAlias + "' in " + aOptions.required ("keystore"));
    final String sCAAlias = aOptions.optional ("ap-ca-alias", "ap-ca");
    final X509Certificate aAPCA = (X509Certificate) aTrustStore.getCertificate (sCAAlias);
    if (aAPCA == null)
      throw new IllegalArgumentException ("no entry '" + sCAAlias + "' in " + aOptions.required ("truststore"));

    return new AccessPointSetup (new AS4CryptoFactoryInMemoryKeyStore (aKeyStore, sKeyAlias, aPassword, aTrustStore),
                                 aOwnCert,
                                 new TrustedCAChecker (aAPCA));
  }

  private static KeyStore load (final Path aPath, final char [] aPassword) throws Exception
  {
    final KeyStore aKS = KeyStore.getInstance ("PKCS12");
    try (InputStream aIS = Files.newInputStream (aPath))
    {
      aKS.load (aIS, aPassword);
    }
    return aKS;
  }

  static void shutdown ()
  {
    WebScopeManager.onGlobalEnd ();
  }
}
