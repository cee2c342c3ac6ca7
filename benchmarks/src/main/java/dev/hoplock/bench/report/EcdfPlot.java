package dev.hoplock.bench.report;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A small chart drawn with Java2D: panels of empirical cumulative distributions (one step line plus one dot per
 * measured value for each series) with labelled vertical reference lines, written as one PNG.
 */
final class EcdfPlot {

    record Series(String label, Color color, double[] values) {
    }

    record Reference(String label, Color color, double x) {
    }

    /** {@code note}: printed inside the plot area, top left (for example values beyond the axis); may be empty. */
    record Panel(String title, String xLabel, double xMin, double xMax, List<Series> series, List<Reference> references,
            String note) {
    }

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 17);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    private static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    private EcdfPlot() {
    }

    static void write(Path file, String heading, List<Panel> panels, int panelWidth, int height) throws IOException {
        int width = panelWidth * panels.size();
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(heading, 20, 28);
        for (int i = 0; i < panels.size(); i++) {
            draw(g, panels.get(i), i * panelWidth, 44, panelWidth, height - 44);
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void draw(Graphics2D g, Panel panel, int x0, int y0, int w, int h) {
        int left = x0 + 70;
        int right = x0 + w - 30;
        int top = y0 + 40;
        int bottom = y0 + h - 170;
        g.setColor(Color.BLACK);
        g.setFont(TITLE.deriveFont(15f));
        g.drawString(panel.title(), x0 + 20, y0 + 20);

        // grid and axes
        double[] ticks = ticks(panel.xMin(), panel.xMax(), 8);
        g.setFont(SMALL);
        FontMetrics metrics = g.getFontMetrics();
        for (double tick : ticks) {
            int x = xPixel(tick, panel, left, right);
            g.setColor(new Color(230, 230, 230));
            g.draw(new Line2D.Double(x, top, x, bottom));
            g.setColor(Color.DARK_GRAY);
            String text = format(tick);
            g.drawString(text, x - metrics.stringWidth(text) / 2, bottom + 16);
        }
        for (int i = 0; i <= 4; i++) {
            double fraction = i / 4.0;
            int y = (int) Math.round(bottom - fraction * (bottom - top));
            g.setColor(new Color(230, 230, 230));
            g.draw(new Line2D.Double(left, y, right, y));
            g.setColor(Color.DARK_GRAY);
            String text = String.format(Locale.ROOT, "%.2f", fraction);
            g.drawString(text, left - 8 - metrics.stringWidth(text), y + 4);
        }
        g.setColor(Color.BLACK);
        g.drawRect(left, top, right - left, bottom - top);
        g.setFont(LABEL);
        FontMetrics labelMetrics = g.getFontMetrics();
        g.drawString(panel.xLabel(), (left + right) / 2 - labelMetrics.stringWidth(panel.xLabel()) / 2, bottom + 36);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        String yLabel = "fraction of repetitions <= x";
        rotated.drawString(yLabel, -((top + bottom) / 2 + labelMetrics.stringWidth(yLabel) / 2), x0 + 18);
        rotated.dispose();

        // reference lines
        Stroke dashed = new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f);
        int legendY = bottom + 58;
        for (Reference reference : panel.references()) {
            int x = xPixel(reference.x(), panel, left, right);
            g.setColor(reference.color());
            g.setStroke(dashed);
            if (x >= left && x <= right) {
                g.draw(new Line2D.Double(x, top, x, bottom));
            }
        }
        // series
        for (Series series : panel.series()) {
            double[] values = series.values().clone();
            Arrays.sort(values);
            int n = values.length;
            g.setColor(series.color());
            g.setStroke(new BasicStroke(2.2f));
            Path2D.Double path = new Path2D.Double();
            path.moveTo(left, bottom);
            double previousY = bottom;
            for (int i = 0; i < n; i++) {
                double x = xPixel(values[i], panel, left, right);
                double y = bottom - (i + 1.0) / n * (bottom - top);
                path.lineTo(x, previousY);
                path.lineTo(x, y);
                previousY = y;
            }
            path.lineTo(right, previousY);
            g.draw(path);
            for (int i = 0; i < n; i++) {
                double x = xPixel(values[i], panel, left, right);
                double y = bottom - (i + 1.0) / n * (bottom - top);
                g.fill(new Ellipse2D.Double(x - 3.5, y - 3.5, 7, 7));
            }
        }
        if (!panel.note().isEmpty()) {
            g.setFont(SMALL);
            FontMetrics noteMetrics = g.getFontMetrics();
            g.setColor(new Color(255, 255, 255, 235));
            g.fillRect(left + 6, top + 6, noteMetrics.stringWidth(panel.note()) + 8, noteMetrics.getHeight() + 4);
            g.setColor(Color.BLACK);
            g.drawRect(left + 6, top + 6, noteMetrics.stringWidth(panel.note()) + 8, noteMetrics.getHeight() + 4);
            g.drawString(panel.note(), left + 10, top + 8 + noteMetrics.getAscent());
        }
        // legend: series, then references
        g.setFont(SMALL);
        int lx = x0 + 30;
        int ly = legendY;
        for (Series series : panel.series()) {
            g.setColor(series.color());
            g.setStroke(new BasicStroke(2.2f));
            g.draw(new Line2D.Double(lx, ly - 4, lx + 26, ly - 4));
            g.fill(new Ellipse2D.Double(lx + 10, ly - 7.5, 7, 7));
            g.setColor(Color.BLACK);
            g.drawString(series.label(), lx + 34, ly);
            ly += 18;
        }
        for (Reference reference : panel.references()) {
            g.setColor(reference.color());
            g.setStroke(dashed);
            g.draw(new Line2D.Double(lx, ly - 4, lx + 26, ly - 4));
            g.setColor(Color.BLACK);
            g.drawString(reference.label(), lx + 34, ly);
            ly += 18;
        }
        g.setStroke(new BasicStroke(1f));
    }

    /** The x pixel of a value; values beyond the axis are drawn at its edge (the panel's note says so). */
    private static int xPixel(double value, Panel panel, int left, int right) {
        double clamped = Math.max(panel.xMin(), Math.min(panel.xMax(), value));
        return (int) Math.round(left + (clamped - panel.xMin()) / (panel.xMax() - panel.xMin()) * (right - left));
    }

    /** Round tick values covering [min, max]: steps of 1, 2 or 5 times a power of ten. */
    static double[] ticks(double min, double max, int wanted) {
        double raw = (max - min) / wanted;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = magnitude;
        for (double factor : new double[] {1, 2, 5, 10}) {
            if (factor * magnitude >= raw) {
                step = factor * magnitude;
                break;
            }
        }
        List<Double> ticks = new ArrayList<>();
        for (double t = Math.ceil(min / step) * step; t <= max + 1e-9; t += step) {
            ticks.add(t);
        }
        return ticks.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String format(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }
}
