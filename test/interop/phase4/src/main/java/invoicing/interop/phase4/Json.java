package invoicing.interop.phase4;

/** Just enough JSON writing for the harness's one-line reports (no library for so little). */
final class Json
{
  private Json ()
  {}

  static String field (final String sName, final Object aValue)
  {
    return quote (sName) + ":" + value (aValue);
  }

  static String value (final Object aValue)
  {
    if (aValue == null)
      return "null";
    if (aValue instanceof Number || aValue instanceof Boolean)
      return aValue.toString ();
    return quote (aValue.toString ());
  }

  static String quote (final String s)
  {
    final StringBuilder aSB = new StringBuilder ("\"");
    for (final char c : s.toCharArray ())
    {
      switch (c)
      {
        case '"' -> aSB.append ("\\\"");
        case '\\' -> aSB.append ("\\\\");
        case '\n' -> aSB.append ("\\n");
        case '\r' -> aSB.append ("\\r");
        case '\t' -> aSB.append ("\\t");
        default -> {
          if (c < 0x20)
            aSB.append (String.format ("\\u%04x", (int) c));
          else
            aSB.append (c);
        }
      }
    }
    return aSB.append ('"').toString ();
  }
}
