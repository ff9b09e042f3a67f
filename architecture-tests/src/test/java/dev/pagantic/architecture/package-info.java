/**
 * The dependency rule of DESIGN.md, enforced by ArchUnit and failing the build.
 *
 * <h2>The rules</h2>
 * {@link dev.pagantic.architecture.LayerRules} builds every rule for a root package; each carries a
 * {@code because} that explains it to whoever breaks it.
 * <ul>
 *   <li><b>Layers.</b> core depends on the JDK only; inference on core only; each band layer (context, tool,
 *       constraint, rerank, validate, prompt, memory, observe) on core, inference and third-party libraries, and not
 *       on another band layer; nothing below orchestrate depends on it; orchestrate reaches engines only through the
 *       inference SPI; engines (the testkit included) depend on core, inference and their vendor library, and not
 *       on each other.</li>
 *   <li><b>Adapters</b>, as an allow-list: among pagantic classes they may depend on core, orchestrate's facade
 *       ({@code orchestrate.facade}), the interception SPI ({@code orchestrate.spi}, temporal only), and the engine,
 *       inference and band types they wire up. Wiring is enforced on calls: into those types an adapter may call a
 *       static {@code builder()}, the methods of a builder (a class named {@code *Builder} with a parameterless
 *       {@code build()}), {@code close()} and an enum's constant API; constructors, field reads and method references
 *       (how band types plug into orchestrate's ports) are wiring too. Adapters do not depend on each other.</li>
 *   <li><b>Grammar.</b> Classes named like grammar code ({@code *Gbnf*Parser}, {@code *Grammar*Generator},
 *       {@code *ToGbnf} ...) live only in {@code inference.grammar}, and no class outside inference is named
 *       {@code Gbnf*}. Both are naming heuristics: they catch a second grammar implementation that says what it
 *       is.</li>
 *   <li><b>General.</b> No cycles between packages (every package is a slice); library code (all but adapters and
 *       examples) never touches System.out/err and logs through SLF4J only; no mutable static state outside the
 *       examples: static fields are final and not of a known mutable type. Only declared types are checked, so a
 *       field declared as {@code Map} holding a {@code HashMap} is not detected; compiler-generated fields
 *       ({@code $VALUES}, {@code $SwitchMap$...}) are skipped. Every class belongs to a known layer, so that no new
 *       package escapes the rules.</li>
 * </ul>
 *
 * <h2>How the tests prove the rules</h2>
 * {@code ArchitectureTest} checks every rule on the production classes of all modules (root {@code dev.pagantic},
 * test classes excluded). Because most modules are still empty, every rule allows an empty selection; a separate test
 * checks that the import does see production classes. {@code RulesCatchViolationsTest} builds the rules for the root
 * {@code dev.pagantic.archfixture.violating}, whose test classes mirror the real layout and break each rule on purpose,
 * and asserts that each rule reports its offender and leaves the compliant classes beside it alone.
 * {@code LayerRulesTest} checks every rule, refusing empty selections, on {@code dev.pagantic.archfixture.compliant}, a
 * small system that follows the design, so that no rule is trivially over-broad. The production check never sees the
 * fixtures: they are test classes and live under another root.
 */
package dev.pagantic.architecture;
