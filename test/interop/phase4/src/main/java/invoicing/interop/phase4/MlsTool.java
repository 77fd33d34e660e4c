package invoicing.interop.phase4;

import java.io.File;
import java.time.LocalDate;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import com.helger.datetime.xml.XMLOffsetTime;
import com.helger.diagnostics.error.IError;
import com.helger.diagnostics.error.list.ErrorList;
import com.helger.ubl21.UBL21Marshaller;

import oasis.names.specification.ubl.schema.xsd.applicationresponse_21.ApplicationResponseType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.DocumentReferenceType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.DocumentResponseType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.LineReferenceType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.LineResponseType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.PartyType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.ResponseType;
import oasis.names.specification.ubl.schema.xsd.commonaggregatecomponents_21.StatusType;
import oasis.names.specification.ubl.schema.xsd.commonbasiccomponents_21.EndpointIDType;

/**
 * Peppol Message Level Status on phase4's side, without our code: peppol-mls (PeppolMLSBuilder,
 * PeppolMLSValidator) is not served by the Maven repository here, so an MLS is built and read the
 * way that module does it, on ph-ubl21's UBL 2.1 ApplicationResponse model (a dependency of phase4),
 * written and read through UBL21Marshaller, which validates it against the UBL 2.1 XSD both ways.
 * The MLS rules (SCH-MLS-*) are the official Schematron's, run by the phive harness.
 *
 * mls-build --code AP|AB|RE --from-spid SPID --to-spid SPID --reference ID --out FILE
 *           [--description TEXT] [--issue-location PATH --issue-description TEXT --issue-reason BV|BW|FD|SV]
 * mls-read --file FILE → one JSON line: ok, xsdErrors, customizationId, profileId, id, responseCode,
 *                  description, referenceId, sender, receiver, issues
 */
final class MlsTool
{
  private static final String SPIS = "0242";

  private MlsTool ()
  {}

  static int build (final Options aOptions)
  {
    final ApplicationResponseType aAR = new ApplicationResponseType ();
    aAR.setCustomizationID ("urn:peppol:edec:mls:1.0");
    aAR.setProfileID ("urn:peppol:edec:mls");
    aAR.setID (aOptions.optional ("id", UUID.randomUUID ().toString ()));
    aAR.setIssueDate (LocalDate.now (ZoneOffset.UTC));
    aAR.setIssueTime (XMLOffsetTime.of (OffsetTime.now (ZoneOffset.UTC).truncatedTo (ChronoUnit.SECONDS)));
    aAR.setSenderParty (party (aOptions.required ("from-spid")));
    aAR.setReceiverParty (party (aOptions.required ("to-spid")));
    final DocumentResponseType aDR = new DocumentResponseType ();
    final ResponseType aResponse = new ResponseType ();
    aResponse.setResponseCode (aOptions.required ("code"));
    final String sDescription = aOptions.optional ("description", null);
    if (sDescription != null)
      aResponse.addDescription (new oasis.names.specification.ubl.schema.xsd.commonbasiccomponents_21.DescriptionType (sDescription));
    aDR.setResponse (aResponse);
    final DocumentReferenceType aRef = new DocumentReferenceType ();
    aRef.setID (aOptions.required ("reference"));
    aDR.addDocumentReference (aRef);
    final String sIssue = aOptions.optional ("issue-description", null);
    if (sIssue != null)
    {
      final LineResponseType aLine = new LineResponseType ();
      final LineReferenceType aLineRef = new LineReferenceType ();
      aLineRef.setLineID (aOptions.optional ("issue-location", "NA"));
      aLine.setLineReference (aLineRef);
      final ResponseType aLineResponse = new ResponseType ();
      aLineResponse.addDescription (new oasis.names.specification.ubl.schema.xsd.commonbasiccomponents_21.DescriptionType (sIssue));
      final StatusType aStatus = new StatusType ();
      aStatus.setStatusReasonCode (aOptions.optional ("issue-reason", "BV"));
      aLineResponse.addStatus (aStatus);
      aLine.addResponse (aLineResponse);
      aDR.addLineResponse (aLine);
    }
    aAR.addDocumentResponse (aDR);
    final ErrorList aErrors = new ErrorList ();
    final boolean bWritten = UBL21Marshaller.applicationResponse ()
                                            .setCollectErrors (aErrors)
                                            .write (aAR, new File (aOptions.required ("out")))
                                            .isSuccess ();
    System.out.println ("{" + Json.field ("ok", bWritten) + ",\"xsdErrors\":" + errors (aErrors) + "}");
    return bWritten ? 0 : 1;
  }

  static int read (final String sFile)
  {
    final ErrorList aErrors = new ErrorList ();
    final ApplicationResponseType aAR = UBL21Marshaller.applicationResponse ().setCollectErrors (aErrors).read (new File (sFile));
    final StringBuilder aLine = new StringBuilder ("{");
    aLine.append (Json.field ("ok", aAR != null)).append (",\"xsdErrors\":").append (errors (aErrors));
    if (aAR != null)
    {
      final DocumentResponseType aDR = aAR.getDocumentResponseCount () > 0 ? aAR.getDocumentResponseAtIndex (0) : null;
      aLine.append (',').append (Json.field ("customizationId", aAR.getCustomizationIDValue ()));
      aLine.append (',').append (Json.field ("profileId", aAR.getProfileIDValue ()));
      aLine.append (',').append (Json.field ("id", aAR.getIDValue ()));
      aLine.append (',').append (Json.field ("sender", endpoint (aAR.getSenderParty ())));
      aLine.append (',').append (Json.field ("receiver", endpoint (aAR.getReceiverParty ())));
      if (aDR != null)
      {
        aLine.append (',').append (Json.field ("responseCode", aDR.getResponse ().getResponseCodeValue ()));
        aLine.append (',').append (Json.field ("description",
                                               aDR.getResponse ().hasDescriptionEntries () ? aDR.getResponse ().getDescriptionAtIndex (0).getValue () : null));
        aLine.append (',').append (Json.field ("referenceId",
                                               aDR.getDocumentReferenceCount () > 0 ? aDR.getDocumentReferenceAtIndex (0).getIDValue () : null));
        final StringBuilder aIssues = new StringBuilder ("[");
        for (final LineResponseType aLineResponse : aDR.getLineResponse ())
          for (final ResponseType aR : aLineResponse.getResponse ())
          {
            if (aIssues.length () > 1)
              aIssues.append (',');
            aIssues.append ('{')
                   .append (Json.field ("location", aLineResponse.getLineReference ().getLineIDValue ()))
                   .append (',')
                   .append (Json.field ("reason", aR.hasStatusEntries () ? aR.getStatusAtIndex (0).getStatusReasonCodeValue () : null))
                   .append (',')
                   .append (Json.field ("description", aR.hasDescriptionEntries () ? aR.getDescriptionAtIndex (0).getValue () : null))
                   .append ('}');
          }
        aLine.append (",\"issues\":").append (aIssues).append (']');
      }
    }
    System.out.println (aLine.append ('}'));
    return aAR != null ? 0 : 1;
  }

  private static PartyType party (final String sSpid)
  {
    final PartyType aParty = new PartyType ();
    final EndpointIDType aID = new EndpointIDType (sSpid);
    aID.setSchemeID (SPIS);
    aParty.setEndpointID (aID);
    return aParty;
  }

  private static String endpoint (final PartyType aParty)
  {
    if (aParty == null || aParty.getEndpointID () == null)
      return null;
    return aParty.getEndpointID ().getSchemeID () + ":" + aParty.getEndpointID ().getValue ();
  }

  private static String errors (final ErrorList aErrors)
  {
    final StringBuilder b = new StringBuilder ("[");
    for (final IError aError : aErrors)
    {
      if (b.length () > 1)
        b.append (',');
      b.append (Json.quote (aError.getAsString (java.util.Locale.ROOT)));
    }
    return b.append (']').toString ();
  }
}
