package dev.georesolver.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Draws the open-loop latency sweep of {@code scripts/bench.sh} as a PNG: latency (log scale, ms)
 * against offered load (% of the saturating pass-through rate), one line per percentile (p50, p99,
 * p99.9) for the resolver ("pass", solid) and for the provider called directly ("direct", dashed).
 * Headless {@code java.awt} and {@code ImageIO} only: nothing to install.
 *
 * <pre>
 * sweep-chart --in SWEEP.tsv --out docs/bench-sweep.png [--title T]
 *   SWEEP.tsv: one line per point and target, tab-separated, '#' lines ignored:
 *   load_pct  rate_rps  target(pass|direct)  p50_ms  p99_ms  p999_ms
 * </pre>
 */
public final class SweepChart {

  private static final int W = 900;
  private static final int H = 560;
  private static final int LEFT = 80;
  private static final int RIGHT = 190;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;
  private static final String[] PERCENTILES = {"p50", "p99", "p99.9"};
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0xd62728)};

  private SweepChart() {}

  /** One measured point of one target. */
  record Point(double loadPct, double rate, String target, double[] ms) {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    Flags f = Flags.parse(args, Map.of());
    List<Point> points = read(Path.of(f.required("in")));
    if (points.isEmpty()) {
      throw new IllegalArgumentException("no points in " + f.required("in"));
    }
    BufferedImage img = draw(points, f.get("title", "Open-loop latency vs load"));
    Path out = Path.of(f.required("out"));
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    ImageIO.write(img, "png", out.toFile());
    System.out.println("wrote " + out + " (" + points.size() + " points)");
  }

  static List<Point> read(Path tsv) throws IOException {
    List<Point> points = new ArrayList<>();
    for (String line : Files.readAllLines(tsv)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] c = line.trim().split("\\s+");
      if (c.length < 6) {
        throw new IllegalArgumentException("expected 6 columns: " + line);
      }
      points.add(new Point(Double.parseDouble(c[0]), Double.parseDouble(c[1]), c[2],
          new double[] {Double.parseDouble(c[3]), Double.parseDouble(c[4]), Double.parseDouble(c[5])}));
    }
    return points;
  }

  static BufferedImage draw(List<Point> points, String title) {
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, H);

    double minMs = Double.MAX_VALUE;
    double maxMs = 0;
    double maxLoad = 0;
    for (Point p : points) {
      for (double v : p.ms()) {
        double clamped = Math.max(v, 0.01);
        minMs = Math.min(minMs, clamped);
        maxMs = Math.max(maxMs, clamped);
      }
      maxLoad = Math.max(maxLoad, p.loadPct());
    }
    double lo = Math.pow(10, Math.floor(Math.log10(minMs)));
    double hi = Math.pow(10, Math.ceil(Math.log10(maxMs)));
    if (hi <= lo) {
      hi = lo * 10;
    }
    double xMax = Math.max(80, Math.ceil(maxLoad / 10) * 10);
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    double logLo = Math.log10(lo);
    double logSpan = Math.log10(hi) - logLo;
    java.util.function.DoubleUnaryOperator x = v -> LEFT + v / xMax * pw;
    java.util.function.DoubleUnaryOperator y = v -> TOP + ph - (Math.log10(Math.max(v, 0.01)) - logLo) / logSpan * ph;

    Font small = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    g.setFont(small);
    FontMetrics fm = g.getFontMetrics();
    // Grid: decades (labelled) and the 2 and 5 in between; load every 10 %.
    for (double d = lo; d <= hi * 1.0001; d *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        double v = d * m;
        if (v > hi * 1.0001) {
          break;
        }
        int yy = (int) Math.round(y.applyAsDouble(v));
        g.setColor(m == 1 ? new Color(0xcccccc) : new Color(0xeeeeee));
        g.drawLine(LEFT, yy, LEFT + pw, yy);
        if (m == 1 || logSpan <= 2) {
          g.setColor(Color.DARK_GRAY);
          String s = label(v);
          g.drawString(s, LEFT - 8 - fm.stringWidth(s), yy + fm.getAscent() / 2 - 1);
        }
      }
    }
    for (int l = 0; l <= xMax; l += 10) {
      int xx = (int) Math.round(x.applyAsDouble(l));
      g.setColor(new Color(0xeeeeee));
      g.drawLine(xx, TOP, xx, TOP + ph);
      g.setColor(Color.DARK_GRAY);
      String s = l + "%";
      g.drawString(s, xx - fm.stringWidth(s) / 2, TOP + ph + 18);
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, TOP, pw, ph);
    g.drawString("offered load, % of the saturating pass-through rate (open loop, coordinated omission corrected)",
        LEFT, H - 18);
    Graphics2D gr = (Graphics2D) g.create();
    gr.rotate(-Math.PI / 2);
    gr.drawString("latency, ms (log scale)", -(TOP + ph / 2) - 60, 22);
    gr.dispose();
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, LEFT, 30);
    g.setFont(small);

    Stroke solid = new BasicStroke(2.2f);
    Stroke dashed = new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f);
    int legendY = TOP + 10;
    for (String target : new String[] {"pass", "direct"}) {
      TreeMap<Double, Point> byLoad = new TreeMap<>();
      for (Point p : points) {
        if (p.target().equals(target)) {
          byLoad.put(p.loadPct(), p);
        }
      }
      if (byLoad.isEmpty()) {
        continue;
      }
      for (int k = 0; k < PERCENTILES.length; k++) {
        g.setColor(COLORS[k]);
        g.setStroke(target.equals("pass") ? solid : dashed);
        int px = -1;
        int py = -1;
        for (Point p : byLoad.values()) {
          int xx = (int) Math.round(x.applyAsDouble(p.loadPct()));
          int yy = (int) Math.round(y.applyAsDouble(p.ms()[k]));
          if (px >= 0) {
            g.drawLine(px, py, xx, yy);
          }
          g.fillOval(xx - 3, yy - 3, 6, 6);
          px = xx;
          py = yy;
        }
        int lx = LEFT + pw + 16;
        g.drawLine(lx, legendY, lx + 30, legendY);
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.BLACK);
        g.drawString((target.equals("pass") ? "resolver " : "direct ") + PERCENTILES[k], lx + 38, legendY + 4);
        legendY += 20;
      }
      legendY += 8;
    }
    g.setStroke(new BasicStroke(1f));
    g.setColor(Color.DARK_GRAY);
    List<String> rates = new ArrayList<>();
    TreeMap<Double, Double> rateByLoad = new TreeMap<>();
    for (Point p : points) {
      rateByLoad.put(p.loadPct(), p.rate());
    }
    rateByLoad.forEach((l, r) -> rates.add(String.format(Locale.ROOT, "%.0f%% = %.0f req/s", l, r)));
    legendY += 6;
    for (String r : rates) {
      g.drawString(r, LEFT + pw + 16, legendY);
      legendY += 16;
    }
    g.dispose();
    return img;
  }

  private static String label(double ms) {
    if (ms >= 1) {
      return String.format(Locale.ROOT, "%.0f", ms);
    }
    return String.format(Locale.ROOT, ms >= 0.1 ? "%.1f" : "%.2f", ms);
  }
}
