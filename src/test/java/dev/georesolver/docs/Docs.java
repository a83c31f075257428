package dev.georesolver.docs;

import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The project's Markdown read as GitHub renders it (CommonMark): its relative links and images, its
 * headings' anchors, and its {@code console} blocks split into commands and the output shown for
 * each. Pure: nothing here runs a command; {@link DocsTest} does. Not thread-safe (plain values).
 *
 * <p>The rules the documentation follows, checked here:
 *
 * <ul>
 *   <li>A shell session a reader can type is a {@code ```console} block: each command on a line
 *       starting {@code $ } (a line ending in {@code \} continues it on the next), followed by what
 *       it printed. In the output, a line that is only {@code …} or {@code ...} stands for lines left
 *       out, and {@code …} inside a line for text left out (timings, trace ids). A fenced block of
 *       another kind may not hold {@code $ } lines, except a {@code text} block: a screen capture or
 *       a log, shown and never run.
 *   <li>A console block is run by the test unless the line right before it is the marker
 *       {@code <!-- not run: REASON -->}; a block that is not marked must consist of commands that
 *       need no network, no running server and no long run ({@link #whyNotRunnable}).
 * </ul>
 */
final class Docs {

  private Docs() {}

  /** The marker that keeps the console block after it from being run, with its reason. */
  static final Pattern NOT_RUN = Pattern.compile("\\A<!--\\s*not run:\\s*(\\S.*?)\\s*-->\\s*\\z", Pattern.DOTALL);

  /** A relative link or image: where it is and what it names. */
  record Ref(Path file, int line, String destination, boolean image) {
    @Override public String toString() {
      return file + ":" + line + ": " + (image ? "image " : "link ") + destination;
    }
  }

  /** One command of a console block, as typed after {@code $ }, and the output lines shown under it. */
  record Command(Path file, int line, String text, List<String> shown) {
    @Override public String toString() {
      return file + ":" + line + ": $ " + text;
    }
  }

  /**
   * A fenced block: its info string, the reason it is not run (null when it is run, or is not a
   * console block), its commands, and what is wrong with its form (null when nothing is).
   */
  record Block(Path file, int line, String info, String notRun, List<Command> commands, String problem) {
    boolean console() {
      return "console".equals(info);
    }

    @Override public String toString() {
      return file + ":" + line + ": ```" + info;
    }
  }

  /** One Markdown file: its references, the anchors its headings make, and its fenced blocks. */
  record Page(Path file, List<Ref> refs, Set<String> anchors, List<Block> blocks) {}

  private static final Parser PARSER = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();

  /** Reads and parses {@code file}. */
  static Page read(Path file) throws IOException {
    return parse(file, Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Parses {@code markdown} as the content of {@code file} (which need not exist). */
  static Page parse(Path file, String markdown) {
    Node doc = PARSER.parse(markdown);
    List<Ref> refs = new ArrayList<>();
    List<String> headings = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    doc.accept(new AbstractVisitor() {
      @Override public void visit(Link link) {
        ref(link, link.getDestination(), false);
        visitChildren(link);
      }

      @Override public void visit(Image image) {
        ref(image, image.getDestination(), true);
        visitChildren(image);
      }

      @Override public void visit(Heading heading) {
        headings.add(text(heading));
        visitChildren(heading);
      }

      @Override public void visit(FencedCodeBlock block) {
        blocks.add(block(file, block));
      }

      private void ref(Node node, String destination, boolean image) {
        if (!isExternal(destination)) {
          refs.add(new Ref(file, line(node), destination, image));
        }
      }
    });
    return new Page(file, refs, anchors(headings), blocks);
  }

  /** A destination with a scheme ({@code https:}, {@code mailto:}) leaves the repository. */
  static boolean isExternal(String destination) {
    return destination.matches("(?s)[A-Za-z][A-Za-z0-9+.-]*:.*");
  }

  /**
   * The anchor GitHub gives a heading: its text in lower case, every character that is not a
   * letter, a digit, a mark, a space, {@code -} or {@code _} removed, and each space made {@code -}.
   */
  static String slug(String headingText) {
    StringBuilder b = new StringBuilder();
    headingText.strip().toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
      int type = Character.getType(c);
      if (c == ' ') {
        b.append('-');
      } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK
          || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK) {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
  }

  /** The anchors of headings in order: a repeated slug gets {@code -1}, {@code -2}, … as on GitHub. */
  static Set<String> anchors(List<String> headings) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String h : headings) {
      String s = slug(h);
      int n = seen.merge(s, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? s : s + "-" + n);
    }
    return anchors;
  }

  /**
   * What is wrong with each reference of {@code page}: a target file or directory that does not
   * exist (relative to the page; a leading {@code /} is the repository root), or a {@code #fragment}
   * naming no heading of the Markdown page it points into. A fragment into another kind of file may
   * only be a GitHub line anchor ({@code #L12}, {@code #L12-L20}).
   *
   * @param root the repository root
   * @param pages reads a Markdown page (cached by the caller)
   */
  static List<String> brokenRefs(Page page, Path root, Function<Path, Page> pages) {
    List<String> broken = new ArrayList<>();
    Path base = root.toAbsolutePath().normalize();
    for (Ref ref : page.refs()) {
      String where = base.relativize(ref.file().toAbsolutePath().normalize()) + ":" + ref.line() + ": "
          + (ref.image() ? "image " : "link ") + ref.destination();
      String dest = ref.destination();
      int hash = dest.indexOf('#');
      String path = URLDecoder.decode(hash < 0 ? dest : dest.substring(0, hash), StandardCharsets.UTF_8);
      String fragment = hash < 0 ? null : dest.substring(hash + 1);
      Path target = path.isEmpty() ? page.file()
          : path.startsWith("/") ? root.resolve(path.substring(1)) : page.file().toAbsolutePath().getParent().resolve(path);
      target = target.normalize();
      if (!Files.exists(target)) {
        broken.add(where + ": no file " + base.relativize(target.toAbsolutePath()));
      } else if (fragment != null && !fragment.isEmpty()) {
        if (target.toString().endsWith(".md")) {
          Page into = path.isEmpty() ? page : pages.apply(target);
          if (!into.anchors().contains(URLDecoder.decode(fragment, StandardCharsets.UTF_8))) {
            broken.add(where + ": no heading with anchor #" + fragment + " in " + target.getFileName());
          }
        } else if (!fragment.matches("L\\d+(-L\\d+)?")) {
          broken.add(where + ": #" + fragment + " is no line anchor of " + target.getFileName());
        }
      }
    }
    return broken;
  }

  // ---- console blocks

  private static Block block(Path file, FencedCodeBlock fenced) {
    String info = fenced.getInfo() == null ? "" : fenced.getInfo().strip();
    int line = line(fenced);
    List<String> lines = fenced.getLiteral().lines().toList();
    if (!"console".equals(info)) {
      boolean prompts = lines.stream().anyMatch(l -> l.startsWith("$ "));
      String problem = prompts && !"text".equals(info)
          ? "a shell session in a ```" + (info.isEmpty() ? "" : info) + " block: make it a ```console block (or ```text for a screen capture)"
          : null;
      return new Block(file, line, info, null, List.of(), problem);
    }
    String notRun = null;
    if (fenced.getPrevious() instanceof HtmlBlock html) {
      Matcher m = NOT_RUN.matcher(html.getLiteral().strip());
      if (m.matches()) {
        notRun = m.group(1);
      }
    }
    List<Command> commands = new ArrayList<>();
    String problem = null;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.startsWith("$ ")) {
        if (commands.isEmpty()) {
          problem = "line " + (line + 1 + i) + " comes before the block's first `$ ` command";
          break;
        }
        continue;
      }
      int at = line + 1 + i;
      StringBuilder text = new StringBuilder(l.substring(2));
      while (text.toString().endsWith("\\") && i + 1 < lines.size()) {
        text.append('\n').append(lines.get(++i));
      }
      List<String> shown = new ArrayList<>();
      while (i + 1 < lines.size() && !lines.get(i + 1).startsWith("$ ")) {
        shown.add(lines.get(++i));
      }
      commands.add(new Command(file, at, text.toString(), List.copyOf(shown)));
    }
    if (problem == null && commands.isEmpty()) {
      problem = "a console block without a `$ ` command";
    }
    return new Block(file, line, info, notRun, List.copyOf(commands), problem);
  }

  /** Commands that read or print local files only, and need nothing but the repository. */
  static final Set<String> LOCAL_PROGRAMS = Set.of("cat", "echo", "printf", "head", "tail", "wc", "cmp", "diff", "grep",
      "sort", "cut", "ls", "test", "true");

  /** The jar's commands that answer from the repository alone (the embedded resolver, or the manifest checker). */
  static final Set<String> OFFLINE_JAR_COMMANDS = Set.of("geocode", "reverse", "batch", "validate");

  /** How a runnable command names the jar; the test runs it from the test classpath instead. */
  static final String JAR = "java -jar target/georesolver.jar";

  /**
   * Why a command of an unmarked console block cannot be run offline, or empty when it can. It can
   * when every simple command of it (split at {@code ;}, {@code &&}, {@code ||} and {@code |}) is
   * either one of {@link #LOCAL_PROGRAMS}, or {@code java -jar target/georesolver.jar} with one of
   * {@link #OFFLINE_JAR_COMMANDS} and none of {@code --server}, {@code --redis}, {@code --cluster}
   * (a server to ask, a store to share, a cluster to join). Anything else — {@code curl}, scripts,
   * {@code mvn}, {@code docker-compose}, {@code redis-*}, {@code serve}, a job sent to the
   * background with {@code &}, a command substitution — needs a marker.
   */
  static Optional<String> whyNotRunnable(String command) {
    List<List<String>> simple;
    try {
      simple = simpleCommands(command);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    for (List<String> words : simple) {
      int first = 0;
      while (first < words.size() && words.get(first).matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
        first++;
      }
      if (first == words.size()) {
        return Optional.of("a variable assignment alone sets nothing for the next command (each command runs in its own shell)");
      }
      List<String> w = words.subList(first, words.size());
      String program = w.get(0);
      if (program.equals("java")) {
        if (w.size() < 4 || !w.get(1).equals("-jar") || !w.get(2).equals("target/georesolver.jar")) {
          return Optional.of("java runs offline here only as `" + JAR + " <command>`");
        }
        if (!OFFLINE_JAR_COMMANDS.contains(w.get(3))) {
          return Optional.of("`" + w.get(3) + "` is not one of the commands that answer offline " + OFFLINE_JAR_COMMANDS);
        }
        for (String a : w) {
          for (String flag : List.of("--server", "--redis", "--cluster")) {
            if (a.equals(flag) || a.startsWith(flag + "=")) {
              return Optional.of(flag + " needs something running besides the command");
            }
          }
        }
      } else if (!LOCAL_PROGRAMS.contains(program)) {
        return Optional.of("`" + program + "` is not a program the documentation test runs (it may need a server, the network or a long run)");
      }
    }
    return Optional.empty();
  }

  /**
   * The simple commands of a command line as words, quotes removed: split at {@code ;}, {@code &&},
   * {@code ||} and {@code |} outside quotes. A line continued with {@code \} is one line.
   *
   * @throws IllegalArgumentException on {@code &} alone, a command substitution or an unclosed quote
   */
  static List<List<String>> simpleCommands(String command) {
    String s = command.replace("\\\n", " ");
    List<List<String>> out = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\'') {
        int end = s.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("an unclosed ' quote");
        }
        word = (word == null ? new StringBuilder() : word).append(s, i + 1, end);
        i = end;
      } else if (c == '"') {
        word = word == null ? new StringBuilder() : word;
        int j = i + 1;
        for (; j < s.length() && s.charAt(j) != '"'; j++) {
          char d = s.charAt(j);
          if (d == '\\' && j + 1 < s.length()) {
            d = s.charAt(++j);
          } else if (d == '`' || (d == '$' && j + 1 < s.length() && s.charAt(j + 1) == '(')) {
            throw new IllegalArgumentException("a command substitution runs a command this rule does not see");
          }
          word.append(d);
        }
        if (j >= s.length()) {
          throw new IllegalArgumentException("an unclosed \" quote");
        }
        i = j;
      } else if (c == '\\' && i + 1 < s.length()) {
        word = (word == null ? new StringBuilder() : word).append(s.charAt(++i));
      } else if (c == '`' || (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '(')) {
        throw new IllegalArgumentException("a command substitution runs a command this rule does not see");
      } else if (c == '#' && word == null) {
        break;
      } else if (c == ';' || c == '|' || c == '&') {
        boolean doubled = i + 1 < s.length() && s.charAt(i + 1) == c;
        if (c == '&' && !doubled) {
          throw new IllegalArgumentException("a command sent to the background outlives the check");
        }
        if (doubled && c != ';') {
          i++;
        }
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        if (!words.isEmpty()) {
          out.add(List.copyOf(words));
        }
        words.clear();
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = (word == null ? new StringBuilder() : word).append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    if (!words.isEmpty()) {
      out.add(List.copyOf(words));
    }
    return out;
  }

  /**
   * The first shown output line that is not in {@code printed}, or empty when all are. Shown lines
   * must appear in order (not necessarily next to each other: a log line on standard error may come
   * between), compared without trailing white space; a line that is only {@code …} or {@code ...}
   * is skipped, and {@code …} inside a line matches any text.
   */
  static Optional<String> missingOutput(List<String> shown, String printed) {
    List<String> out = printed.lines().map(String::stripTrailing).toList();
    int at = 0;
    for (String s : shown) {
      String want = s.stripTrailing();
      if (want.equals("…") || want.equals("...")) {
        continue;
      }
      Pattern p = linePattern(want);
      while (at < out.size() && !p.matcher(out.get(at)).matches()) {
        at++;
      }
      if (at == out.size()) {
        return Optional.of(want);
      }
      at++;
    }
    return Optional.empty();
  }

  private static Pattern linePattern(String shown) {
    StringBuilder re = new StringBuilder();
    int from = 0;
    for (int i = shown.indexOf('…'); i >= 0; i = shown.indexOf('…', from)) {
      re.append(Pattern.quote(shown.substring(from, i))).append(".*");
      from = i + 1;
    }
    re.append(Pattern.quote(shown.substring(from)));
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }

  // ---- helpers

  private static int line(Node node) {
    return node.getSourceSpans().isEmpty() ? 0 : node.getSourceSpans().get(0).getLineIndex() + 1;
  }

  private static String text(Node node) {
    StringBuilder b = new StringBuilder();
    node.accept(new AbstractVisitor() {
      @Override public void visit(Text text) {
        b.append(text.getLiteral());
      }

      @Override public void visit(Code code) {
        b.append(code.getLiteral());
      }
    });
    return b.toString();
  }
}
