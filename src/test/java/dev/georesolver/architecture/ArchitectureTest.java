package dev.georesolver.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package graph of the main code, as rules that fail the build when broken: the picture in
 * {@code docs/architecture.md} is generated from the same import model ({@link PackageGraphTest}).
 */
@AnalyzeClasses(packages = "dev.georesolver", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** The packages that hold pure logic: unit-tested without Vert.x, so they may not import it. */
  static final String[] PURE = {
      "dev.georesolver.geo..", "dev.georesolver.deadline..", "dev.georesolver.normalize..", "dev.georesolver.crs..",
      "dev.georesolver.state.rules..", "dev.georesolver.gazetteer..", "dev.georesolver.ladder..", "dev.georesolver.tenant..",
      "dev.georesolver.shadow.."};

  /** Packages holding verticles or HTTP handlers: the durable state sits below all of them. */
  static final String[] ABOVE_STATE = {
      "dev.georesolver.ingress..", "dev.georesolver.web..", "dev.georesolver.compat..", "dev.georesolver.chain..",
      "dev.georesolver.tier..", "dev.georesolver.cache..", "dev.georesolver.reconcile..", "dev.georesolver.corrections..",
      "dev.georesolver.audit..", "dev.georesolver.jobs..", "dev.georesolver.ops..", "dev.georesolver.reload..",
      "dev.georesolver.cli..", "dev.georesolver.ladder..", "dev.georesolver.gazetteer..", "dev.georesolver.sampling.."};

  @ArchTest
  static final ArchRule topLevelPackagesFormNoCycle = slices().matching("dev.georesolver.(*)..").should().beFreeOfCycles();

  @ArchTest
  static final ArchRule purePackagesImportNoVertx = noClasses().that().resideInAnyPackage(PURE)
      .should().dependOnClassesThat().resideInAPackage("io.vertx..")
      .because("pure logic is unit-tested without Vert.x");

  @ArchTest
  static final ArchRule stateRulesImportNoStoreClient = noClasses().that().resideInAPackage("dev.georesolver.state.rules..")
      .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.sqlite..", "dev.georesolver.redis..",
          "dev.georesolver.state.sqlite..", "dev.georesolver.state.redis..")
      .because("a rule the store applies is decided once, in pure code, and each backend only performs the write");

  @ArchTest
  static final ArchRule stateImportsNoVerticlePackage = noClasses().that().resideInAPackage("dev.georesolver.state..")
      .should().dependOnClassesThat().resideInAnyPackage(ABOVE_STATE)
      .because("the durable store is a leaf: the verticles use it over the bus, it knows none of them");

  @ArchTest
  static final ArchRule onlyAdaptersCallersImportProvider = noClasses()
      .that().resideOutsideOfPackages("dev.georesolver.provider..", "dev.georesolver.tier..", "dev.georesolver.config..")
      .and().doNotHaveFullyQualifiedName("dev.georesolver.GeoResolver")
      .should().dependOnClassesThat().resideInAPackage("dev.georesolver.provider..")
      .because("adapters are called by the tier alone; the manifest asks the registry which adapters exist; core values live in geo");

  /**
   * The typed client ships on its own ({@code target/georesolver-client.jar}) beside vertx-core: it
   * may use the JDK, Vert.x core and itself, nothing else (no other georesolver package, no Jackson,
   * no logging library).
   */
  @ArchTest
  static final ArchRule clientDependsOnVertxCoreOnly = classes().that().resideInAPackage("dev.georesolver.client..")
      .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.vertx.core..", "dev.georesolver.client..")
      .because("other applications' verticles depend on the client jar and vertx-core alone");

  @ArchTest
  static final ArchRule verticlesTalkOnlyOverTheBus = classes().that(areVerticles())
      .and().resideOutsideOfPackages("dev.georesolver", "dev.georesolver.cli..")
      .should(dependOnNoOtherVerticle())
      .because("verticles talk only over the event bus; only the composition root deploys them");

  private static DescribedPredicate<JavaClass> areVerticles() {
    return DescribedPredicate.describe("are verticles", ArchitectureTest::isVerticle);
  }

  static boolean isVerticle(JavaClass c) {
    return c.isAssignableTo("io.vertx.core.Deployable") || c.isAssignableTo("io.vertx.core.Verticle");
  }

  private static ArchCondition<JavaClass> dependOnNoOtherVerticle() {
    return new ArchCondition<>("depend on no other verticle") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
          JavaClass t = d.getTargetClass();
          if (t.getPackageName().startsWith("dev.georesolver") && isVerticle(t) && !sameTopLevel(c, t)) {
            events.add(SimpleConditionEvent.violated(d, d.getDescription()));
          }
        }
      }
    };
  }

  private static boolean sameTopLevel(JavaClass a, JavaClass b) {
    return outermost(a).equals(outermost(b));
  }

  private static String outermost(JavaClass c) {
    JavaClass o = c;
    while (o.getEnclosingClass().isPresent()) {
      o = o.getEnclosingClass().get();
    }
    return o.getName();
  }
}
