package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Constraints on a plan's shape and execution, applied before any step runs: a plan that violates them is rejected
 * whole, so nothing of it executes.
 *
 * <table>
 *   <caption>Rules and defaults</caption>
 *   <tr><th>Rule</th><th>Meaning</th><th>Default</th></tr>
 *   <tr><td>{@code maxSteps}</td><td>upper bound on the plan's step count (every step of every parallel group
 *       counts)</td><td>{@value #DEFAULT_MAX_STEPS}</td></tr>
 *   <tr><td>{@code allowedStepTypes}</td><td>the step types the plan may use; empty means any type (the
 *       executor's registered handlers still limit it)</td><td>empty: any</td></tr>
 *   <tr><td>{@code requireLinear}</td><td>when true, no parallel groups</td><td>false</td></tr>
 *   <tr><td>{@code timeoutPerStep}</td><td>each step's own deadline, on top of the call's; a step that exceeds it is
 *       cancelled and fails with {@code CANCELLED_TIMEOUT}</td><td>none: only the call's deadline</td></tr>
 * </table>
 *
 * <p>The specification sets no defaults; these keep a hand-written plan working unchanged while bounding what an
 * LLM planner can produce. Ten steps is more than any of the specification's pipelines (three or four steps) and
 * stops a runaway plan. There is no default per-step timeout because a local model on a CPU may legitimately take
 * minutes; set one, or a deadline on the call context.
 *
 * <h2>Rejections</h2>
 * {@link #check(ExecutionPlan)} throws a {@link PaganticException} with code {@link ErrorCode#CONFIG_INVALID}
 * (a ConfigurationFailure, not retryable: the same plan fails the same way) whose details name the violated rule
 * ({@code rule}: {@code max_steps}, {@code require_linear} or {@code allowed_step_types}) and the offending step
 * ({@code step}, plus {@code step_type} where the type is at fault). The rules are checked in that order, steps in plan
 * order, and the first violation is reported. {@link #check(ExecutionPlan, Collection)} also checks that a handler is
 * registered for every step type (rule {@code registered_handlers}).
 *
 * @param maxSteps         the most steps a plan may have, at least 1
 * @param allowedStepTypes the permitted step types, in the given order; empty permits any type; immutable
 * @param requireLinear    whether parallel groups are forbidden
 * @param timeoutPerStep   each step's deadline, positive; empty for none
 */
public record PlanPolicy(int maxSteps, Set<StepType> allowedStepTypes, boolean requireLinear,
                         Optional<Duration> timeoutPerStep) {

    /** The default upper bound on a plan's step count. */
    public static final int DEFAULT_MAX_STEPS = 10;

    /** The value of the {@code rule} detail for a plan with too many steps. */
    public static final String RULE_MAX_STEPS = "max_steps";
    /** The value of the {@code rule} detail for a parallel group under {@code requireLinear}. */
    public static final String RULE_REQUIRE_LINEAR = "require_linear";
    /** The value of the {@code rule} detail for a step type outside {@code allowedStepTypes}. */
    public static final String RULE_ALLOWED_STEP_TYPES = "allowed_step_types";
    /** The value of the {@code rule} detail for a step type without a registered handler. */
    public static final String RULE_REGISTERED_HANDLERS = "registered_handlers";

    /** Checks the fields; {@code CONFIG_INVALID} for {@code maxSteps < 1}, a non-positive timeout or nulls. */
    public PlanPolicy {
        require(maxSteps >= 1, "maxSteps must be at least 1: " + maxSteps);
        requireNonNull(allowedStepTypes, "allowedStepTypes");
        for (StepType type : allowedStepTypes) {
            require(type != null, "allowedStepTypes must not hold null elements");
        }
        allowedStepTypes = Collections.unmodifiableSet(new LinkedHashSet<>(allowedStepTypes));
        requireNonNull(timeoutPerStep, "timeoutPerStep");
        timeoutPerStep.ifPresent(timeout -> require(!timeout.isNegative() && !timeout.isZero(),
                "timeoutPerStep must be positive: " + timeout));
    }

    /** The default policy: at most {@value #DEFAULT_MAX_STEPS} steps, any step type, parallel groups allowed, no
     * per-step timeout. */
    public static PlanPolicy defaults() {
        return builder().build();
    }

    /** Starts building a policy from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this policy's values. */
    public Builder toBuilder() {
        Builder builder = builder().maxSteps(maxSteps).allowedStepTypes(allowedStepTypes).requireLinear(requireLinear);
        timeoutPerStep.ifPresent(builder::timeoutPerStep);
        return builder;
    }

    /** Whether the policy permits steps of the given type. */
    public boolean allows(StepType type) {
        return allowedStepTypes.isEmpty() || allowedStepTypes.contains(type);
    }

    /**
     * The step types a plan may use given the registered handlers: those registered that the policy allows, sorted by
     * name so that what a planner is offered (an LLM planner's schema enum, say) is deterministic.
     */
    public List<StepType> permittedStepTypes(Collection<StepType> registered) {
        requireNonNull(registered, "registered step types");
        return registered.stream().filter(this::allows).distinct()
                .sorted(Comparator.comparing(StepType::name)).toList();
    }

    /**
     * The context a step runs under: the call's context with {@code timeoutPerStep} applied (the earlier deadline
     * wins), or the call's context unchanged when there is no per-step timeout.
     */
    public CallContext stepContext(CallContext ctx) {
        requireNonNull(ctx, "ctx");
        return timeoutPerStep.map(ctx::withTimeout).orElse(ctx);
    }

    /**
     * Rejects a plan that violates this policy, before anything of it runs.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the violated rule and the offending step (see the class
     *                           description); nothing when the plan conforms
     */
    public void check(ExecutionPlan plan) {
        requireNonNull(plan, "plan");
        List<Step> steps = plan.steps();
        if (steps.size() > maxSteps) {
            Step first = steps.get(maxSteps);
            throw violation(RULE_MAX_STEPS, first,
                    "the plan has " + steps.size() + " steps, more than the policy's maxSteps of " + maxSteps
                            + " (step '" + first.name() + "' is the first beyond the limit)")
                    .detail("step_count", steps.size()).detail("max_steps", maxSteps).build();
        }
        if (requireLinear) {
            List<ExecutionPlan.Stage> stages = plan.stages();
            for (int i = 0; i < stages.size(); i++) {
                ExecutionPlan.Stage stage = stages.get(i);
                if (stage.isParallel()) {
                    Step first = stage.steps().get(0);
                    throw violation(RULE_REQUIRE_LINEAR, first,
                            "step '" + first.name() + "' is in a parallel group, which the policy forbids"
                                    + " (requireLinear)")
                            .detail("stage", i)
                            .detail("group", stage.steps().stream().map(Step::name).toList())
                            .build();
                }
            }
        }
        for (Step step : steps) {
            if (!allows(step.type())) {
                throw violation(RULE_ALLOWED_STEP_TYPES, step,
                        "step '" + step.name() + "' has type '" + step.type() + "', which the policy does not allow"
                                + " (allowed: " + names(allowedStepTypes) + ")")
                        .detail("step_type", step.type().name())
                        .detail("allowed_step_types", names(allowedStepTypes))
                        .build();
            }
        }
    }

    /**
     * Rejects a plan that violates this policy ({@link #check(ExecutionPlan)}) or that uses a step type no handler is
     * registered for.
     *
     * @param registered the step types with a registered handler (an executor's handler map's key set)
     * @throws PaganticException {@code CONFIG_INVALID}; for a missing handler the {@code rule} detail is
     *                           {@value #RULE_REGISTERED_HANDLERS} and the details name the step and its type
     */
    public void check(ExecutionPlan plan, Collection<StepType> registered) {
        check(plan);
        requireNonNull(registered, "registered step types");
        for (Step step : plan.steps()) {
            if (!registered.contains(step.type())) {
                List<StepType> sorted = new ArrayList<>(registered);
                sorted.sort(Comparator.comparing(StepType::name));
                throw violation(RULE_REGISTERED_HANDLERS, step,
                        "no handler is registered for step '" + step.name() + "' of type '" + step.type()
                                + "' (registered: " + names(sorted) + ")")
                        .detail("step_type", step.type().name())
                        .detail("registered_step_types", names(sorted))
                        .build();
            }
        }
    }

    private static PaganticException.Builder violation(String rule, Step step, String message) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, message)
                .detail("rule", rule)
                .detail("step", step.name());
    }

    private static List<String> names(Collection<StepType> types) {
        return types.stream().map(StepType::name).toList();
    }

    /** Builds a {@link PlanPolicy}; starts from the defaults, checked at {@link #build()} ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private int maxSteps = DEFAULT_MAX_STEPS;
        private final List<StepType> allowed = new ArrayList<>();
        private boolean requireLinear;
        private Duration timeoutPerStep;

        private Builder() {
        }

        /** The most steps a plan may have, at least 1; {@value PlanPolicy#DEFAULT_MAX_STEPS} by default. */
        public Builder maxSteps(int value) {
            this.maxSteps = value;
            return this;
        }

        /** Permits only these step types (replacing any set before); an empty collection permits any type. */
        public Builder allowedStepTypes(Collection<StepType> types) {
            allowed.clear();
            if (types == null) {
                allowed.add(null); // refused at build()
            } else {
                allowed.addAll(types);
            }
            return this;
        }

        /** Permits only these step types (replacing any set before). */
        public Builder allowedStepTypes(StepType... types) {
            return allowedStepTypes(types == null ? null : Arrays.asList(types));
        }

        /** Permits any step type (the default). */
        public Builder allowAnyStepType() {
            allowed.clear();
            return this;
        }

        /** Whether parallel groups are forbidden; false by default. */
        public Builder requireLinear(boolean value) {
            this.requireLinear = value;
            return this;
        }

        /** Each step's own deadline, positive; none by default. */
        public Builder timeoutPerStep(Duration value) {
            this.timeoutPerStep = requireNonNull(value, "timeoutPerStep");
            return this;
        }

        /** No per-step deadline (the default): steps are bounded by the call's deadline only. */
        public Builder noTimeoutPerStep() {
            this.timeoutPerStep = null;
            return this;
        }

        /**
         * The policy.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for {@code maxSteps < 1}, a null step type or a non-positive
         *                           timeout
         */
        public PlanPolicy build() {
            return new PlanPolicy(maxSteps, new LinkedHashSet<>(allowed), requireLinear,
                    Optional.ofNullable(timeoutPerStep));
        }
    }
}
