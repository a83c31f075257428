package dev.georesolver.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The log format is chosen by flag or environment, and each format keeps an event on one line with its fields. */
class LogsTest {

  private static final String HOSTILE = "denied\n12:00:00.000 ERROR dev.georesolver.cli.Main - forged\r\nsecond";

  @Test
  @DisplayName("text by default; GEO_LOG_FORMAT is read; --log-format wins and is taken out of the arguments")
  void choosesTheFormat() {
    assertThat(Logs.choose(new String[0], Map.of()).format()).isEqualTo(Logs.Format.TEXT);
    assertThat(Logs.choose(new String[0], Map.of("GEO_LOG_FORMAT", "JSON")).format()).isEqualTo(Logs.Format.JSON);
    Logs.Choice c = Logs.choose(new String[] {"--port", "1", "--log-format", "text", "--redis", "r"}, Map.of("GEO_LOG_FORMAT", "json"));
    assertThat(c.format()).isEqualTo(Logs.Format.TEXT);
    assertThat(c.rest()).containsExactly("--port", "1", "--redis", "r");
    assertThat(Logs.choose(new String[] {"--log-format=json"}, Map.of()).format()).isEqualTo(Logs.Format.JSON);
  }

  @Test
  @DisplayName("for a command whose output is its answer: console logs to standard error, INFO and below quietened unless GEO_LOG_LEVEL is set")
  void toStandardError() {
    LoggerContext ctx = (LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory();
    Logger chatty = ctx.getLogger("dev.georesolver.logs-test.chatty");
    chatty.setLevel(Level.INFO);
    Logger kept = ctx.getLogger("dev.georesolver.logs-test.kept");
    Logs.toStandardError(Map.of());
    assertThat(chatty.getLevel()).isEqualTo(Level.WARN);
    java.util.List<String> targets = new java.util.ArrayList<>();
    ctx.getLoggerList().forEach(l -> l.iteratorForAppenders().forEachRemaining(a -> {
      if (a instanceof ch.qos.logback.core.ConsoleAppender<?> c) {
        targets.add(c.getTarget());
      }
    }));
    assertThat(targets).isNotEmpty().containsOnly("System.err");
    kept.setLevel(Level.DEBUG);
    Logs.toStandardError(Map.of("GEO_LOG_LEVEL", "DEBUG"));
    assertThat(kept.getLevel()).isEqualTo(Level.DEBUG);
  }

  @Test
  @DisplayName("an unknown format or a missing value is refused naming the flag")
  void refusesBadValues() {
    assertThatThrownBy(() -> Logs.choose(new String[] {"--log-format", "xml"}, Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--log-format must be json or text, got xml");
    assertThatThrownBy(() -> Logs.choose(new String[] {"--log-format"}, Map.of())).hasMessageContaining("needs a value");
    assertThatThrownBy(() -> Logs.choose(new String[0], Map.of("GEO_LOG_FORMAT", "yaml"))).hasMessageContaining("yaml");
  }

  @Test
  @DisplayName("json: one object a line with ts, level, logger, thread, msg and the structured fields flat")
  void jsonSchema() {
    Fixture f = new Fixture(Logs.Format.JSON);
    LoggingEvent e = f.event(Level.WARN, "tier {} said: {}", "alpha", HOSTILE);
    e.addKeyValuePair(new KeyValuePair("event", "breaker_transition"));
    e.addKeyValuePair(new KeyValuePair("tier", "alpha"));
    e.addKeyValuePair(new KeyValuePair("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736"));
    e.addKeyValuePair(new KeyValuePair("confidence", 0.9));
    e.addKeyValuePair(new KeyValuePair("degraded", true));
    e.addKeyValuePair(new KeyValuePair("absent", null));

    String out = f.encode(e);

    assertThat(out).endsWith("\n");
    assertThat(out.substring(0, out.length() - 1)).doesNotContain("\n").doesNotContain("\r");
    JsonObject j = new JsonObject(out);
    assertThat(j.fieldNames()).startsWith("ts", "level", "logger", "thread", "msg");
    assertThat(j.getString("ts")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(j.getString("level")).isEqualTo("WARN");
    assertThat(j.getString("logger")).isEqualTo("dev.georesolver.test");
    assertThat(j.getString("thread")).isEqualTo(Thread.currentThread().getName());
    assertThat(j.getString("msg")).isEqualTo("tier alpha said: " + HOSTILE);
    assertThat(j.getString("event")).isEqualTo("breaker_transition");
    assertThat(j.getString("trace_id")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(j.getDouble("confidence")).isEqualTo(0.9);
    assertThat(j.getBoolean("degraded")).isTrue();
    assertThat(j.containsKey("absent")).isFalse();
  }

  @Test
  @DisplayName("json: an exception goes into stack_trace, still on the one line")
  void jsonStackTrace() {
    Fixture f = new Fixture(Logs.Format.JSON);
    LoggingEvent e = f.event(Level.ERROR, "router_error", new IllegalStateException(HOSTILE));

    String out = f.encode(e);

    assertThat(out.strip()).doesNotContain("\n");
    assertThat(new JsonObject(out).getString("stack_trace")).contains("IllegalStateException: " + HOSTILE);
  }

  @Test
  @DisplayName("text: line breaks in the message, the fields and exception messages are escaped; frames stay indented")
  void textStaysOnOneLine() {
    Fixture f = new Fixture(Logs.Format.TEXT);
    LoggingEvent e = f.event(Level.ERROR, "tier {} said: {}", "alpha",
        HOSTILE, new IllegalStateException(HOSTILE, new RuntimeException("cause\nforged")));
    e.addKeyValuePair(new KeyValuePair("tier", "alpha"));
    e.addKeyValuePair(new KeyValuePair("detail", "a\nb \"quoted\""));

    String[] lines = f.encode(e).split("\n");

    assertThat(lines[0]).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ERROR dev.georesolver.test - tier alpha said: .*")
        .contains("said: denied\\n12:00:00.000 ERROR dev.georesolver.cli.Main - forged\\r\\nsecond")
        .endsWith(" tier=\"alpha\" detail=\"a\\nb \\\"quoted\\\"\"");
    assertThat(lines[1]).startsWith("java.lang.IllegalStateException: denied\\n12:00:00.000");
    for (int i = 2; i < lines.length; i++) {
      assertThat(lines[i]).matches("(\\t|Caused by: ).*");
    }
    assertThat(String.join("\n", lines)).contains("Caused by: java.lang.RuntimeException: cause\\nforged");
  }

  @Test
  @DisplayName("OneLine escapes CR, LF and the Unicode line separators and leaves other text alone")
  void oneLine() {
    assertThat(OneLine.escape("a\rb\nc\u2028d\u2029e")).isEqualTo("a\\rb\\nc\\u2028d\\u2029e");
    String plain = "Rue de Rivoli, 75001 Paris – ok";
    assertThat(OneLine.escape(plain)).isSameAs(plain);
    assertThat(OneLine.escape(null)).isNull();
    assertThat(OneLine.escape("tab\tstays")).as("escape leaves other controls").isEqualTo("tab\tstays");
  }

  @Test
  @DisplayName("OneLine.escapeControls escapes every C0 and C1 control, DEL and the line separators, for text from outside")
  void oneLineControls() {
    assertThat(OneLine.escapeControls("a\rb\nc\td\u0000e\u001bf\u007fg\u0085h\u2028i"))
        .isEqualTo("a\\rb\\nc\\td\\u0000e\\u001bf\\u007fg\\u0085h\\u2028i");
    String plain = "Rue de Rivoli, 75001 Paris – ok ✓";
    assertThat(OneLine.escapeControls(plain)).isSameAs(plain);
    assertThat(OneLine.escapeControls(null)).isNull();
  }

  /** A private Logback context configured from the shipped file, and its appender's encoder. */
  private static final class Fixture {
    final LoggerContext ctx = new LoggerContext();
    final Encoder<ILoggingEvent> encoder;
    final Logger logger;

    @SuppressWarnings("unchecked")
    Fixture(Logs.Format format) {
      JoranConfigurator j = new JoranConfigurator();
      j.setContext(ctx);
      try {
        j.doConfigure(getClass().getClassLoader().getResource(format.resource()));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      logger = ctx.getLogger("dev.georesolver.test");
      var appender = (OutputStreamAppender<ILoggingEvent>) ctx.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT");
      encoder = appender.getEncoder();
      assertThat(ctx.getStatusManager().getCopyOfStatusList()).noneMatch(s -> s.getLevel() == ch.qos.logback.core.status.Status.ERROR);
    }

    LoggingEvent event(Level level, String msg, Object... args) {
      Throwable t = args.length > 0 && args[args.length - 1] instanceof Throwable th ? th : null;
      Object[] params = t == null ? args : java.util.Arrays.copyOf(args, args.length - 1);
      return new LoggingEvent(Fixture.class.getName(), logger, level, msg, t, params);
    }

    String encode(LoggingEvent e) {
      return new String(encoder.encode(e), StandardCharsets.UTF_8);
    }
  }
}
