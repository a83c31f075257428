package dev.georesolver.compat;

import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.vertx.core.buffer.Buffer;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.util.regex.Pattern;

/**
 * Streaming XML output for the dialects' XML shapes, written by the JDK's {@link XMLStreamWriter}
 * (it escapes {@code &}, {@code <}, {@code >} and, in attributes, {@code "}). What that writer
 * leaves to its caller is done here: every value is {@linkplain #clean cleaned} of the characters
 * XML 1.0 cannot carry at all, and element names that do not come from this code are checked
 * ({@link #isName}). Values come from providers and clients: none of them can break the document.
 * Thread-safe.
 */
final class XmlWriting {

  /** Nominatim's content type for XML. */
  static final String CONTENT_TYPE = "text/xml; charset=utf-8";

  /** What a character XML 1.0 cannot carry becomes. */
  static final char REPLACEMENT = '\uFFFD';

  /**
   * One factory per thread: the StAX API does not promise that a factory may be shared. The JDK's
   * own implementation is asked for by name ({@code newDefaultFactory}), so no other StAX provider
   * on the class path changes the output.
   */
  private static final ThreadLocal<XMLOutputFactory> FACTORY = ThreadLocal.withInitial(XMLOutputFactory::newDefaultFactory);

  /** Conservative element names: ASCII letters, digits, {@code _ - .}, not starting with a digit, {@code -} or {@code .}. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

  private XmlWriting() {}

  /** Writes one document's root element (the declaration is written before it). */
  @FunctionalInterface
  interface Body {
    void write(Xml x) throws XMLStreamException;
  }

  /** The bytes of the document {@code body} writes: {@code <?xml version="1.0" encoding="UTF-8"?>}, a newline, the root. */
  static Buffer xml(Body body) {
    ByteArrayBuilder out = new ByteArrayBuilder(1024);
    try {
      XMLStreamWriter w = FACTORY.get().createXMLStreamWriter(out, "UTF-8");
      w.writeStartDocument("UTF-8", "1.0");
      w.writeCharacters("\n");
      body.write(new Xml(w));
      w.writeEndDocument();
      w.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("writing XML to memory failed", e);
    }
    return Buffer.buffer(out.toByteArray());
  }

  /**
   * {@code s} with every character XML 1.0 cannot carry replaced by U+FFFD: C0 controls other than
   * tab, line feed and carriage return, U+FFFE, U+FFFF and unpaired surrogates. A valid pair (an
   * emoji) is kept. The same string when nothing needs replacing.
   */
  static String clean(String s) {
    int n = s.length();
    int i = 0;
    while (i < n && allowed(s, i)) {
      i += Character.isHighSurrogate(s.charAt(i)) ? 2 : 1;
    }
    if (i >= n) {
      return s;
    }
    StringBuilder b = new StringBuilder(n).append(s, 0, i);
    while (i < n) {
      if (allowed(s, i)) {
        boolean pair = Character.isHighSurrogate(s.charAt(i));
        b.append(s, i, i + (pair ? 2 : 1));
        i += pair ? 2 : 1;
      } else {
        b.append(REPLACEMENT);
        i++;
      }
    }
    return b.toString();
  }

  /** Whether the character at {@code i} (with its low surrogate, for a high one) may stand in XML 1.0. */
  private static boolean allowed(String s, int i) {
    char c = s.charAt(i);
    if (c >= 0x20 && c < 0xD800) {
      return true;
    }
    if (c == '\t' || c == '\n' || c == '\r') {
      return true;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return c >= 0xE000 && c <= 0xFFFD;
  }

  /** Whether {@code s} may be written as an element name. */
  static boolean isName(String s) {
    return s != null && NAME.matcher(s).matches();
  }

  /** The writer with every value cleaned; names are this code's own constants or checked by the caller. */
  static final class Xml {
    private final XMLStreamWriter w;

    private Xml(XMLStreamWriter w) {
      this.w = w;
    }

    Xml start(String name) throws XMLStreamException {
      w.writeStartElement(name);
      return this;
    }

    Xml attr(String name, String value) throws XMLStreamException {
      w.writeAttribute(name, clean(value));
      return this;
    }

    Xml text(String value) throws XMLStreamException {
      w.writeCharacters(clean(value));
      return this;
    }

    Xml end() throws XMLStreamException {
      w.writeEndElement();
      return this;
    }

    /** {@code <name>text</name>}. */
    Xml leaf(String name, String text) throws XMLStreamException {
      return start(name).text(text).end();
    }
  }
}
