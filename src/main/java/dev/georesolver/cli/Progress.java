package dev.georesolver.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * How a batch shows its progress on standard error: a bar redrawn in place on a terminal, a plain
 * line every few seconds otherwise (a log, a CI job), or nothing. The rate is measured over the
 * last ten seconds, the ETA from it. Called from the batch's own thread only.
 */
abstract class Progress {

  /**
   * Where a batch stands.
   *
   * @param total rows in the input
   * @param done rows in the output, in input order
   * @param resolved rows resolved among them
   * @param notResolved rows refused, invalid or failed among them
   * @param doneAtStart rows already done when this run began (a resumed run)
   */
  record Counts(long total, long done, long resolved, long notResolved, long doneAtStart) {}

  private static final long WINDOW_NS = 10_000_000_000L;

  private final LongSupplier nanos;
  private final ArrayDeque<long[]> samples = new ArrayDeque<>();
  private final long startNs;

  Progress(LongSupplier nanos) {
    this.nanos = nanos;
    this.startNs = nanos.getAsLong();
  }

  /** Shows {@code c} if it is time to. */
  final void update(Counts c) {
    long now = nanos.getAsLong();
    samples.addLast(new long[] {now, c.done()});
    while (samples.size() > 2 && now - samples.peekFirst()[0] > WINDOW_NS) {
      samples.removeFirst();
    }
    show(c, now);
  }

  /** Says what is happening before there is progress to show (reading the input, starting the resolver). */
  abstract void note(String text);

  /** Clears what {@link #update} or {@link #note} drew, so a message can follow on a line of its own. */
  void clear() {}

  /** Clears what {@link #update} drew and prints the last line. */
  abstract void finish(String line);

  abstract void show(Counts c, long now);

  /** Rows a second over the last ten seconds; 0 before two samples. */
  final double rate(long now) {
    if (samples.size() < 2) {
      return 0;
    }
    long[] first = samples.peekFirst();
    long[] last = samples.peekLast();
    double s = (last[0] - first[0]) / 1e9;
    return s <= 0 ? 0 : (last[1] - first[1]) / s;
  }

  /** Seconds since this run began. */
  final double elapsedS() {
    return (nanos.getAsLong() - startNs) / 1e9;
  }

  /** {@code 1:02:03}, {@code 2:03}, or {@code --:--} when unknown. */
  static String duration(double seconds) {
    if (!Double.isFinite(seconds) || seconds < 0) {
      return "--:--";
    }
    long s = Math.round(seconds);
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s % 3600 / 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  static String eta(Counts c, double rate) {
    return rate <= 0 ? "--:--" : duration((c.total() - c.done()) / rate);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static int percent(Counts c) {
    return c.total() == 0 ? 100 : (int) (c.done() * 100 / c.total());
  }

  /**
   * A bar on a terminal, redrawn in place at most ten times a second. Anything else written to
   * standard error meanwhile (a log line) first clears the bar, which is drawn again below it, so
   * the screen never shows a log line glued to a bar.
   */
  static final class Bar extends Progress {
    private static final long EVERY_NS = 100_000_000L;
    private final PrintStream err;
    private final int width;
    private final Object lock = new Object();
    private long lastDraw = Long.MIN_VALUE;
    private boolean drawn;
    private PrintStream replaced;

    Bar(PrintStream err, int width, LongSupplier nanos) {
      super(nanos);
      this.err = err;
      this.width = width;
    }

    /**
     * Puts a stream in front of {@code System.err} (which {@code err} is) that clears the bar before
     * anything else is written there; {@link #finish} puts the original back.
     */
    Bar guardingStandardError() {
      if (System.err == err) {
        replaced = System.err;
        System.setErr(new PrintStream(new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (lock) {
              erase();
              err.write(b);
            }
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (lock) {
              erase();
              err.write(b, off, len);
            }
          }

          @Override
          public void flush() {
            err.flush();
          }
        }, true, StandardCharsets.UTF_8));
      }
      return this;
    }

    @Override
    void clear() {
      synchronized (lock) {
        erase();
      }
    }

    private void erase() {
      if (drawn) {
        err.print("\r\u001b[K");
        drawn = false;
      }
    }

    @Override
    void note(String text) {
      synchronized (lock) {
        err.print("\r" + Terminal.safe(text, width - 4) + "\u001b[K");
        err.flush();
        drawn = true;
      }
    }

    @Override
    void show(Counts c, long now) {
      synchronized (lock) {
        if (drawn && now - lastDraw < EVERY_NS && c.done() < c.total()) {
          return;
        }
        lastDraw = now;
        // \r returns to the line's start; ESC [K erases what a longer line before left behind. Three
        // columns stay free, so the terminal's echo of a Ctrl-C (^C) does not wrap onto a new line
        // that the final line's \r could not reach.
        err.print("\r" + line(c, rate(now), width - 2) + "\u001b[K");
        err.flush();
        drawn = true;
      }
    }

    /** One line of at most {@code width - 1} columns: percent, bar, rows, rate, ETA, and rows not resolved when they fit. */
    static String line(Counts c, double rate, int width) {
      String pct = String.format(Locale.ROOT, "%3d%% ", percent(c));
      String right = " " + count(c.done()) + "/" + count(c.total()) + " rows  " + count(Math.round(rate)) + " rows/s  ETA "
          + eta(c, rate);
      String extra = c.notResolved() > 0 ? "  " + count(c.notResolved()) + " not resolved" : "";
      int room = width - 1 - pct.length() - 2 - right.length();
      if (room - extra.length() >= 10) {
        right += extra;
        room -= extra.length();
      }
      if (room < 10) {
        String plain = pct + right.strip();
        return plain.substring(0, Math.min(width - 1, plain.length()));
      }
      int filled = (int) (room * (c.total() == 0 ? 1.0 : (double) c.done() / c.total()));
      StringBuilder bar = new StringBuilder(pct).append('[');
      for (int i = 0; i < room; i++) {
        bar.append(i < filled ? '#' : i == filled ? '>' : '.');
      }
      return bar.append(']').append(right).toString();
    }

    @Override
    void finish(String line) {
      synchronized (lock) {
        erase();
        err.print(line + "\n");
        err.flush();
        if (replaced != null) {
          System.setErr(replaced);
          replaced = null;
        }
      }
    }
  }

  /** A plain line every few seconds, for standard error that is a file or a pipe. */
  static final class Lines extends Progress {
    private final PrintStream err;
    private final long everyNs;
    private long lastLine;

    Lines(PrintStream err, long everyMs, LongSupplier nanos) {
      super(nanos);
      this.err = err;
      this.everyNs = everyMs * 1_000_000L;
      this.lastLine = nanos.getAsLong();
    }

    @Override
    void note(String text) {
      err.println("batch: " + text);
    }

    @Override
    void show(Counts c, long now) {
      if (now - lastLine < everyNs || c.done() >= c.total()) {
        return;
      }
      lastLine = now;
      double rate = rate(now);
      err.println("batch: " + count(c.done()) + "/" + count(c.total()) + " rows (" + percent(c) + "%), " + count(Math.round(rate))
          + " rows/s, ETA " + eta(c, rate) + (c.notResolved() > 0 ? "; " + count(c.notResolved()) + " not resolved" : ""));
    }

    @Override
    void finish(String line) {
      err.println(line);
    }
  }

  /** Nothing but the last line. */
  static final class Quiet extends Progress {
    private final PrintStream err;

    Quiet(PrintStream err, LongSupplier nanos) {
      super(nanos);
      this.err = err;
    }

    @Override
    void note(String text) {}

    @Override
    void show(Counts c, long now) {}

    @Override
    void finish(String line) {
      err.println(line);
    }
  }
}
