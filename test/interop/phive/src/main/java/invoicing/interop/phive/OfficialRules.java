package invoicing.interop.phive;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;

import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXParseException;

import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmNodeKind;
import net.sf.saxon.s9api.XsltExecutable;

/**
 * Runs official validation artefacts on documents, for the tests that compare our validator with them.
 *
 * <pre>
 * java -jar phive-harness.jar --xslt cen=external/schematron/openpeppol/2026.5/xslt/CEN-EN16931-UBL.xslt \
 *                             --xsd tsr=external/schemas/peppol-transaction-statistics-reporting-1.0.1.xsd
 * </pre>
 *
 * Each --xslt / --xsd names an artefact by its class-path resource (the phive-rules-peppol jar and the
 * jars it depends on are on the class path); a path that starts with "/" is read from the file system.
 * --sch names a Schematron in its source form (.sch, query binding xslt2), which is turned into XSLT
 * first by SchXslt2's transpiler (a dependency of phive, on the class path), as the official XSLT
 * releases are made.
 * Then every stdin line "NAME FILE" asks for artefact NAME on FILE, and one JSON line is answered per
 * request, in order: {"name":..,"file":..,"asserts":[{"id","flag","location"}]} for a Schematron
 * (failed asserts and successful reports of the SVRL, as the official tools report them),
 * {"name":..,"file":..,"errors":[{"line","message"}]} for an XSD, or {"name":..,"file":..,"failure":..}
 * when the document cannot be read. Compiling is done once per artefact, at start.
 */
public final class OfficialRules {
  private static final String SVRL = "http://purl.oclc.org/dsdl/svrl";

  public static void main(String[] args) throws Exception {
    Processor saxon = new Processor(false);
    Map<String, XsltExecutable> stylesheets = new HashMap<>();
    Map<String, Schema> schemas = new HashMap<>();
    SchemaFactory schemaFactory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    for (int i = 0; i + 1 < args.length; i += 2) {
      String[] named = args[i + 1].split("=", 2);
      URL url = resource(named[1]);
      switch (args[i]) {
        case "--xslt" -> stylesheets.put(named[0], saxon.newXsltCompiler().compile(new StreamSource(url.openStream(), url.toString())));
        case "--xsd" -> schemas.put(named[0], schemaFactory.newSchema(url));
        case "--sch" -> stylesheets.put(named[0], compileSchematron(saxon, url));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    out.println("{\"ready\":true}");
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      String[] request = line.split(" ", 2);
      String name = request[0];
      File file = new File(request[1]);
      StringBuilder json = new StringBuilder("{\"name\":").append(quote(name)).append(",\"file\":").append(quote(file.getPath()));
      try {
        // The answer is computed before anything is appended: a failure leaves no half-written member.
        if (stylesheets.containsKey(name)) {
          String asserts = schematron(saxon, stylesheets.get(name), file);
          json.append(",\"asserts\":").append(asserts);
        } else if (schemas.containsKey(name)) {
          String errors = xsd(schemas.get(name), file);
          json.append(",\"errors\":").append(errors);
        } else throw new IllegalArgumentException("no artefact named " + name);
      } catch (Exception e) {
        json.append(",\"failure\":").append(quote(String.valueOf(e.getMessage())));
      }
      out.println(json.append('}'));
      out.flush();
    }
  }

  /** A .sch compiled to XSLT by SchXslt2 (content/transpile.xsl), then that XSLT compiled. */
  private static XsltExecutable compileSchematron(Processor saxon, URL sch) throws Exception {
    URL transpiler = resource("content/transpile.xsl");
    XsltExecutable transpile = saxon.newXsltCompiler().compile(new StreamSource(transpiler.openStream(), transpiler.toString()));
    XdmDestination xslt = new XdmDestination();
    transpile.load30().transform(new StreamSource(sch.openStream(), sch.toString()), xslt);
    return saxon.newXsltCompiler().compile(xslt.getXdmNode().asSource());
  }

  private static URL resource(String path) throws Exception {
    if (path.startsWith("/")) return new File(path).toURI().toURL();
    URL url = OfficialRules.class.getClassLoader().getResource(path);
    if (url == null) throw new IllegalArgumentException("no class-path resource " + path);
    return url;
  }

  private static String schematron(Processor saxon, XsltExecutable stylesheet, File file) throws Exception {
    XdmDestination svrl = new XdmDestination();
    stylesheet.load30().transform(new StreamSource(file), svrl);
    List<String> fired = new ArrayList<>();
    collect(svrl.getXdmNode(), fired);
    return "[" + String.join(",", fired) + "]";
  }

  private static void collect(XdmNode node, List<String> fired) {
    for (XdmNode child : node.children()) {
      if (child.getNodeKind() != XdmNodeKind.ELEMENT) {
        if (child.getNodeKind() == XdmNodeKind.DOCUMENT) collect(child, fired);
        continue;
      }
      QName qn = child.getNodeName();
      if (SVRL.equals(qn.getNamespace()) && (qn.getLocalName().equals("failed-assert") || qn.getLocalName().equals("successful-report"))) {
        fired.add("{\"id\":" + quote(child.attribute("id")) + ",\"flag\":" + quote(child.attribute("flag")) + ",\"location\":" + quote(child.attribute("location")) + "}");
      } else {
        collect(child, fired);
      }
    }
  }

  private static String xsd(Schema schema, File file) throws Exception {
    List<String> errors = new ArrayList<>();
    Validator validator = schema.newValidator();
    validator.setErrorHandler(new ErrorHandler() {
      @Override public void warning(SAXParseException e) {}
      @Override public void error(SAXParseException e) { errors.add(describe(e)); }
      @Override public void fatalError(SAXParseException e) { errors.add(describe(e)); }
    });
    try {
      validator.validate(new StreamSource(file));
    } catch (SAXParseException e) {
      // Reported through the handler already; validation stops at a fatal error.
    }
    return "[" + String.join(",", errors) + "]";
  }

  private static String describe(SAXParseException e) {
    return "{\"line\":" + e.getLineNumber() + ",\"message\":" + quote(e.getMessage()) + "}";
  }

  private static String quote(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
      }
    }
    return b.append('"').toString();
  }
}
