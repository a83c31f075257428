package dev.georesolver.shadow;

import java.util.Locale;

/** How the report and the advice write numbers: counts, shares, metres, milliseconds, ratios. Pure. */
final class Figures {

  private Figures() {}

  /** 4210 → "4,210". */
  static String count(long n) {
    return String.format(Locale.ENGLISH, "%,d", n);
  }

  /**
   * A share as a percentage: whole percent ("96 %"); one decimal below 10 % ("1.9 %", "0.3 %"),
   * where a whole percent would lose most of the figure, and from 99.5 % ("99.6 %"), where it would
   * read as all; "&gt;99.9 %" / "&lt;0.1 %" beyond.
   */
  static String percent(double share) {
    if (share >= 1) {
      return "100 %";
    }
    if (share <= 0) {
      return "0 %";
    }
    double pct = share * 100;
    if (pct >= 99.95) {
      return ">99.9 %";
    }
    if (pct < 0.05) {
      return "<0.1 %";
    }
    if (pct >= 99.5 || pct < 9.95) {
      return String.format(Locale.ROOT, "%.1f %%", pct);
    }
    return String.format(Locale.ROOT, "%.0f %%", pct);
  }

  /** Metres: "3.2 m", "120 m", "1 km", "1.2 km", "12 km". */
  static String metres(double m) {
    if (m >= 1000 && m < 10_000 && m % 1000 == 0) {
      return String.format(Locale.ROOT, "%.0f km", m / 1000);
    }
    if (m < 10) {
      return String.format(Locale.ROOT, "%.1f m", m);
    }
    if (m < 999.5) {
      return String.format(Locale.ROOT, "%.0f m", m);
    }
    if (m < 9_950) {
      return String.format(Locale.ROOT, "%.1f km", m / 1000);
    }
    return String.format(Locale.ENGLISH, "%,.0f km", m / 1000);
  }

  /** Milliseconds: "0.05 ms", "4.2 ms", "310 ms". */
  static String millis(double ms) {
    if (ms < 1) {
      return String.format(Locale.ROOT, "%.2f ms", ms);
    }
    if (ms < 10) {
      return String.format(Locale.ROOT, "%.1f ms", ms);
    }
    return String.format(Locale.ENGLISH, "%,.0f ms", ms);
  }

  /** A latency ratio: "<0.01×", "0.05×", "0.4×", "1.3×", "12×". */
  static String ratio(double r) {
    if (r < 0.01) {
      return "<0.01×";
    }
    if (r < 0.095) {
      return String.format(Locale.ROOT, "%.2f×", r);
    }
    if (r < 9.95) {
      return String.format(Locale.ROOT, "%.1f×", r);
    }
    return String.format(Locale.ENGLISH, "%,.0f×", r);
  }
}
