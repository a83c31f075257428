package dev.georesolver.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * {@code georesolver [command] [options]}: the command line's root. With no command (or a first
 * argument that is an option other than {@code --help} and {@code --version}) it runs {@code serve},
 * so {@code java -jar target/georesolver.jar --port 8080} works as it always has.
 *
 * <p>Bad flags print the problem and the command's usage on standard error and give
 * {@link Exit#USAGE}; {@code --help} on any command prints its usage on standard output.
 */
@Command(name = "georesolver", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = "A geocoding resolver: an ordered ladder of providers walked inside one deadline.%n"
        + "With no command, runs serve.",
    subcommands = {ServeCommand.class, GeocodeCommand.class, ReverseCommand.class, BatchCommand.class, ValidateCommand.class,
        AuditCommand.class, ShadowCommand.class, InitCommand.class},
    footerHeading = "%nExit status:%n",
    footer = {"    0  resolved (batch: every row resolved; validate: the manifest is valid; audit verify: every chain holds)",
        "    1  refused (batch: some rows refused, invalid or failed; audit verify: a chain is broken)",
        "    2  usage or configuration problem",
        "    3  no answer could be had: server unreachable or failing, ladder misconfigured",
        "  130  interrupted (a batch continues with --resume)"})
public final class Cli implements Runnable {

  private static final Set<String> ROOT_OPTIONS = Set.of("-h", "--help", "-V", "--version");

  /** Everything a command needs from outside, given rather than read so tests can give their own. */
  record Context(Map<String, String> env, PrintStream out, PrintStream err) {}

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // Not reached: run() inserts "serve" when no command is named.
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Runs the command line.
   *
   * @param args the arguments, {@code --log-format} already taken out ({@code Logs.configure})
   * @return an exit status of {@link Exit}, or {@link Exit#SERVING} when {@code serve} is running
   */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return commandLine(new Context(env, out, err)).execute(withDefaultCommand(args));
  }

  /** The command line for {@code context}, every command constructed with it. */
  static CommandLine commandLine(Context context) {
    CommandLine cl = new CommandLine(new Cli(), new Factory(context));
    cl.setDefaultValueProvider(new EnvDefaults(context.env()));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOut(new PrintWriter(context.out(), true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(context.err(), true, StandardCharsets.UTF_8));
    cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      commandLine.getErr().println("georesolver: " + e);
      return Exit.UNAVAILABLE;
    });
    return cl;
  }

  /** {@code args} with {@code serve} in front when no command is named. */
  static String[] withDefaultCommand(String[] args) {
    if (args.length > 0 && (ROOT_OPTIONS.contains(args[0]) || !args[0].startsWith("-"))) {
      return args;
    }
    String[] withServe = new String[args.length + 1];
    withServe[0] = "serve";
    System.arraycopy(args, 0, withServe, 1, args.length);
    return withServe;
  }

  /** Builds commands that take the context. */
  private record Factory(Context context) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> cls) throws Exception {
      try {
        return cls.getDeclaredConstructor(Context.class).newInstance(context);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(cls);
      }
    }
  }

  /** {@code --version}: the build's version, from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Cli.class.getPackage().getImplementationVersion();
      return new String[] {"georesolver " + (v == null ? "(development build)" : v),
          "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ")"};
    }
  }
}
