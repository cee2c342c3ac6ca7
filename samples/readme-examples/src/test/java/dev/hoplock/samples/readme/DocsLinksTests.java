package dev.hoplock.samples.readme;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Objects;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of README.md and of the pages under docs/ ({@link DocsFiles}) resolves: the file or directory
 * exists, and an anchor ({@code page.md#section}, {@code #section}) names a heading of that page, as GitHub makes
 * anchors from headings. Links to other sites and text inside code blocks are not checked.
 */
class DocsLinksTests {

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : DocsFiles.markdown()) {
            Path absolute = DocsFiles.root().resolve(file);
            for (String target : links(Files.readString(absolute))) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                checked++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path resolved = path.isEmpty() ? absolute : Objects.requireNonNull(absolute.getParent(), "a file has a folder").resolve(path).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(file + ": " + target + " (no such file)");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
                    broken.add(file + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(20);
        assertThat(broken).as("broken links").isEmpty();
    }

    private static List<String> links(String markdown) {
        List<String> links = new ArrayList<>();
        Matcher matcher = LINK.matcher(outsideCode(markdown, true));
        while (matcher.find()) {
            links.add(matcher.group(1));
        }
        return links;
    }

    /** GitHub's anchors: the heading in lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : outsideCode(markdown, false).lines().toList()) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = heading.group(1).trim().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int repeat = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
            }
        }
        return anchors;
    }

    /** The text outside fenced code blocks; with {@code dropInlineCode}, inline code spans emptied too. */
    private static String outsideCode(String markdown, boolean dropInlineCode) {
        StringBuilder text = new StringBuilder();
        boolean fenced = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced) {
                text.append(dropInlineCode ? line.replaceAll("`[^`]*`", "``") : line).append('\n');
            }
        }
        return text.toString();
    }
}
