package invoicing.interop.phase4;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} pairs, the only form the harness takes (simple for the tests to build). */
final class Options
{
  private final Map <String, String> m_aValues;

  private Options (final Map <String, String> aValues)
  {
    m_aValues = aValues;
  }

  static Options parse (final String [] args)
  {
    final Map <String, String> aValues = new HashMap <> ();
    for (int i = 0; i < args.length; i += 2)
    {
      if (!args[i].startsWith ("--") || i + 1 >= args.length)
        throw new IllegalArgumentException ("expected --name value pairs, got '" + args[i] + "'");
      aValues.put (args[i].substring (2), args[i + 1]);
    }
    return new Options (aValues);
  }

  String required (final String sName)
  {
    final String s = m_aValues.get (sName);
    if (s == null || s.isEmpty ())
      throw new IllegalArgumentException ("--" + sName + " is required");
    return s;
  }

  String optional (final String sName, final String sDefault)
  {
    return m_aValues.getOrDefault (sName, sDefault);
  }

  int number (final String sName, final int nDefault)
  {
    final String s = m_aValues.get (sName);
    try
    {
      return s == null ? nDefault : Integer.parseInt (s);
    }
    catch (final NumberFormatException ex)
    {
      throw new IllegalArgumentException ("--" + sName + " must be a number");
    }
  }

  List <String> list (final String sName)
  {
    final String s = m_aValues.get (sName);
    return s == null || s.isBlank () ? List.of () : List.of (s.split (","));
  }
}
