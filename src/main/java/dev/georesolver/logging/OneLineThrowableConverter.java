package dev.georesolver.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * {@code %onelineEx} in a Logback pattern: the stack trace as {@code %ex} prints it — one frame a
 * line, each indented — but with the line breaks inside every exception message (of the cause and
 * suppressed exceptions too) escaped, so the only unindented line of an event is its first.
 */
public final class OneLineThrowableConverter extends ThrowableProxyConverter {

  @Override
  protected String throwableProxyToString(IThrowableProxy tp) {
    return super.throwableProxyToString(escaped(tp));
  }

  private static IThrowableProxy escaped(IThrowableProxy tp) {
    return tp == null ? null : new Escaped(tp);
  }

  /** The same throwable, its message escaped. */
  private record Escaped(IThrowableProxy in) implements IThrowableProxy {
    @Override
    public String getMessage() {
      return OneLine.escape(in.getMessage());
    }

    @Override
    public String getClassName() {
      return in.getClassName();
    }

    @Override
    public StackTraceElementProxy[] getStackTraceElementProxyArray() {
      return in.getStackTraceElementProxyArray();
    }

    @Override
    public int getCommonFrames() {
      return in.getCommonFrames();
    }

    @Override
    public IThrowableProxy getCause() {
      return escaped(in.getCause());
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      IThrowableProxy[] s = in.getSuppressed();
      if (s == null) {
        return null;
      }
      IThrowableProxy[] out = new IThrowableProxy[s.length];
      for (int i = 0; i < s.length; i++) {
        out[i] = escaped(s[i]);
      }
      return out;
    }

    @Override
    public boolean isCyclic() {
      return in.isCyclic();
    }
  }
}
