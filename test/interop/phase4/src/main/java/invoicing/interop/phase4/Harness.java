package invoicing.interop.phase4;

import java.util.Arrays;

/**
 * The phase4 interop harness's entry point: {@code receive} runs a phase4 Peppol AS4 receiver,
 * {@code send} sends documents with phase4's Peppol sender. Both take the test PKI's PKCS#12 files
 * (scripts/test-pki), so no real Peppol certificate and no SML/SMP is involved.
 */
public final class Harness
{
  private static final String USAGE = String.join ("\n",
      "usage: java -jar phase4-harness.jar receive|send [--option value]...",
      "",
      "common:  --keystore AP.p12 --truststore TRUST.p12 [--password test-pki] [--key-alias ap] [--ap-ca-alias ap-ca]",
      "receive: --out DIR [--port 0] [--threads 8] [--serviced ID,ID...]",
      "         prints 'ready http://127.0.0.1:PORT/as4' once it listens, 'received MESSAGE-ID' per stored",
      "         message; stops when its standard input closes",
      "send:    --endpoint URL --receiver-cert CERT.pem --payload FILE (UBL, or an SBDH: then the ids below",
      "         may be left out and are read from it) --from ID --to ID --doctype ID --process ID",
      "         [--country-c1 BE] [--count 1] [--concurrency 1] [--message-id ID (default: a new one each)]",
      "         [--mls-to 0242:SPID --mls-type ALWAYS_SEND|FAILURE_ONLY] (the SBDH phase4 writes asks for MLS)",
      "         prints one JSON line per message (and a summary line when --count > 1); exit 0 only if every",
      "         message got a receipt whose references match what was sent",
      "send-service: one JVM for many sends (phase4 takes seconds to start): prints 'ready', then reads",
      "         jobs from standard input, one a line, each the send options (common ones included) as",
      "         tab-separated --name and value fields, and answers each with its JSON report line, in order;",
      "         stops when its standard input closes",
      "mls-build: an MLS (UBL ApplicationResponse) built on ph-ubl21 and written XSD-checked (MlsTool)",
      "mls-read --file FILE: an MLS read XSD-checked; one JSON line with what it says (MlsTool)");

  private Harness ()
  {}

  public static void main (final String [] args) throws Exception
  {
    if (args.length == 0)
      usage ("no command given");
    int exitCode = 2;
    try
    {
      final Options options = Options.parse (Arrays.copyOfRange (args, 1, args.length));
      exitCode = switch (args[0])
      {
        case "receive" -> Phase4Receiver.run (options);
        case "send" -> Phase4Sender.run (options);
        case "send-service" -> Phase4Sender.serve ();
        case "mls-build" -> MlsTool.build (options);
        case "mls-read" -> MlsTool.read (options.required ("file"));
        default -> throw new IllegalArgumentException ("unknown command " + args[0]);
      };
    }
    catch (final IllegalArgumentException ex)
    {
      usage (ex.getMessage ());
    }
    System.out.flush ();
    // phase4 leaves non-daemon threads (HTTP client pools, schedulers) behind: end the JVM here.
    System.exit (exitCode);
  }

  static void usage (final String problem)
  {
    System.err.println ("phase4-harness: " + problem + "\n" + USAGE);
    System.exit (2);
  }
}
