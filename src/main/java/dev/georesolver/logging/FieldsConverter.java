package dev.georesolver.logging;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.slf4j.event.KeyValuePair;

import java.util.List;

/**
 * {@code %fields} in a Logback pattern: the event's structured fields (SLF4J key/values) as
 * {@code  key="value"} pairs, each preceded by a blank, or nothing when there are none. Null values
 * are left out, as in the JSON format. Wrap it in {@code %oneline} to escape line breaks.
 */
public final class FieldsConverter extends ClassicConverter {

  @Override
  public String convert(ILoggingEvent event) {
    List<KeyValuePair> kvs = event.getKeyValuePairs();
    if (kvs == null || kvs.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(16 * kvs.size());
    for (KeyValuePair kv : kvs) {
      if (kv.key != null && kv.value != null) {
        sb.append(' ').append(kv.key).append("=\"").append(String.valueOf(kv.value).replace("\"", "\\\"")).append('"');
      }
    }
    return sb.toString();
  }
}
