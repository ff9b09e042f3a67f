package dev.pagantic.orchestrate.facade;

/** Runs one {@link Mode} for the orchestrator: one implementation per mode, each a class of its own. */
@FunctionalInterface
interface ModeRunner {

    /**
     * Runs the request past INIT and PREPARE to its response; a failure the pattern reports is the response's error,
     * and any other failure is thrown for the orchestrator to turn into one.
     */
    SystemResponse run(RequestCall call);
}
