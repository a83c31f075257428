package dev.georesolver.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** What the command line needs to know about the terminal, and text made safe to print on one. */
final class Terminal {

  private static final int DEFAULT_WIDTH = 80;

  private Terminal() {}

  /**
   * {@code text} as one line safe for a terminal: control characters (an escape sequence from a
   * provider's label could rewrite the screen), line and paragraph separators and bidirectional
   * overrides become {@code ?}, and it is cut at {@code max} code points with an ellipsis.
   */
  static String safe(String text, int max) {
    if (text == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(Math.min(text.length(), max + 1));
    int n = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (++n > max) {
        sb.append('…');
        break;
      }
      int type = Character.getType(cp);
      boolean unsafe = type == Character.CONTROL || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
          || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
      sb.appendCodePoint(unsafe ? '?' : cp);
    }
    return sb.toString();
  }

  /**
   * Whether standard error is a terminal that can redraw a line: not with {@code TERM=dumb}; on
   * Linux, whether file descriptor 2 is a tty; elsewhere whether the JVM has a console.
   */
  static boolean stderrIsTerminal(Map<String, String> env) {
    if ("dumb".equals(env.get("TERM"))) {
      return false;
    }
    Path fd2 = Path.of("/proc/self/fd/2");
    if (Files.exists(Path.of("/proc/self/fd"))) {
      try {
        String target = Files.readSymbolicLink(fd2).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (Exception e) {
        return false;
      }
    }
    return System.console() != null;
  }

  /** The terminal's width in columns: {@code COLUMNS}, else what {@code stty} says, else 80; within [40, 200]. */
  static int width(Map<String, String> env) {
    int w = parse(env.get("COLUMNS"));
    if (w <= 0) {
      w = stty();
    }
    return w <= 0 ? DEFAULT_WIDTH : Math.max(40, Math.min(200, w));
  }

  private static int stty() {
    File tty = new File("/dev/tty");
    if (!tty.canRead()) {
      return -1;
    }
    try {
      Process p = new ProcessBuilder("stty", "size").redirectInput(tty).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      if (!p.waitFor(2, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return -1;
      }
      String[] parts = out.split("\\s+");
      return parts.length == 2 ? parse(parts[1]) : -1;
    } catch (Exception e) {
      return -1;
    }
  }

  private static int parse(String s) {
    try {
      return s == null ? -1 : Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
