package io.tfjni.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws bench results as a PNG with java.awt in headless mode: latency percentiles (grouped bars)
 * and throughput (bars) per thread count.
 */
final class BenchPlot {
  static final int WIDTH = 1000;
  static final int HEIGHT = 440;
  private static final Color[] LATENCY_COLORS = {
      new Color(0x4C72B0), new Color(0xDD8452), new Color(0xC44E52)};
  private static final Color THROUGHPUT_COLOR = new Color(0x55A868);
  private static final Color GRID = new Color(0xDDDDDD);

  private BenchPlot() {}

  static void write(Path file, List<BenchCommand.Phase> phases, String title) throws IOException {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    BufferedImage image;
    try {
      image = draw(phases, title);
    } catch (RuntimeException | Error e) { // e.g. no fonts on a minimal system
      throw new CliException("cannot draw the chart: " + Main.describe(e), CliException.FAILURE);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new CliException("no PNG writer in this Java runtime", CliException.FAILURE);
    }
  }

  static BufferedImage draw(List<BenchCommand.Phase> phases, String title) {
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
          RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      centered(g, "tfjni bench: " + title, WIDTH / 2, 26);
      String[] categories = new String[phases.size()];
      double[][] latency = new double[3][phases.size()];
      double[][] throughput = new double[1][phases.size()];
      for (int i = 0; i < phases.size(); i++) {
        BenchCommand.Phase p = phases.get(i);
        categories[i] = Integer.toString(p.threads());
        latency[0][i] = p.p50Ms();
        latency[1][i] = p.p90Ms();
        latency[2][i] = p.p99Ms();
        throughput[0][i] = p.throughput();
      }
      panel(g, 70, 60, 390, 310, "Latency per run (ms)", categories, latency,
          new String[] {"p50", "p90", "p99"}, LATENCY_COLORS);
      panel(g, 570, 60, 390, 310, "Throughput (runs/s)", categories, throughput,
          new String[] {"runs/s"}, new Color[] {THROUGHPUT_COLOR});
      return image;
    } finally {
      g.dispose();
    }
  }

  private static void panel(Graphics2D g, int x, int y, int w, int h, String title,
      String[] categories, double[][] series, String[] names, Color[] colors) {
    double max = 0;
    for (double[] values : series) {
      for (double v : values) {
        if (Double.isFinite(v)) {
          max = Math.max(max, v);
        }
      }
    }
    double step = niceStep(max > 0 ? max : 1);
    double top = Math.max(step, Math.ceil(max / step) * step);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.setColor(Color.BLACK);
    centered(g, title, x + w / 2, y - 8);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    FontMetrics metrics = g.getFontMetrics();
    for (double tick = 0; tick <= top + step / 2; tick += step) {
      int ty = y + h - (int) Math.round(tick / top * h);
      g.setColor(GRID);
      g.drawLine(x, ty, x + w, ty);
      g.setColor(Color.DARK_GRAY);
      String label = formatTick(tick, step);
      g.drawString(label, x - 6 - metrics.stringWidth(label), ty + metrics.getAscent() / 2 - 1);
    }
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(1.2f));
    g.drawLine(x, y, x, y + h);
    g.drawLine(x, y + h, x + w, y + h);
    int groups = Math.max(1, categories.length);
    double groupWidth = (double) w / groups;
    double barWidth = Math.min(60, groupWidth * 0.75 / series.length);
    for (int c = 0; c < categories.length; c++) {
      double groupLeft = x + c * groupWidth + (groupWidth - barWidth * series.length) / 2;
      for (int s = 0; s < series.length; s++) {
        double v = series[s][c];
        if (!Double.isFinite(v)) {
          continue;
        }
        int bh = (int) Math.round(v / top * h);
        int bx = (int) Math.round(groupLeft + s * barWidth);
        g.setColor(colors[s]);
        g.fillRect(bx, y + h - bh, (int) Math.max(1, barWidth - 2), bh);
        if (series.length == 1 || barWidth >= 28) {
          g.setColor(Color.DARK_GRAY);
          centered(g, formatValue(v), bx + (int) (barWidth / 2), y + h - bh - 3);
        }
      }
      g.setColor(Color.BLACK);
      centered(g, categories[c], (int) (x + (c + 0.5) * groupWidth), y + h + 15);
    }
    centered(g, "threads", x + w / 2, y + h + 32);
    if (names.length > 1) { // a row under the axis, right-aligned, clear of the bars
      int lx = x + w - names.length * 52;
      int ly = y + h + 24;
      for (int s = 0; s < names.length; s++) {
        g.setColor(colors[s]);
        g.fillRect(lx + s * 52, ly, 12, 10);
        g.setColor(Color.BLACK);
        g.drawString(names[s], lx + s * 52 + 16, ly + 10);
      }
    }
  }

  static double niceStep(double max) {
    double raw = max / 5;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * magnitude >= raw) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String formatTick(double tick, double step) {
    if (step >= 1) {
      return String.format(Locale.ROOT, "%.0f", tick);
    }
    int decimals = (int) Math.ceil(-Math.log10(step)) + (step * Math.pow(10,
        Math.ceil(-Math.log10(step))) % 1 != 0 ? 1 : 0);
    return String.format(Locale.ROOT, "%." + Math.max(1, decimals) + "f", tick);
  }

  private static String formatValue(double v) {
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static void centered(Graphics2D g, String text, int cx, int baseline) {
    g.drawString(text, cx - g.getFontMetrics().stringWidth(text) / 2, baseline);
  }
}
