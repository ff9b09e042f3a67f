package dev.pagantic.engine.llamacpp;

import de.kherud.llama.ModelParameters;
import de.kherud.llama.args.PoolingType;
import java.nio.file.Path;

/**
 * How a model is loaded; the runtime shares one loaded model between engines whose specs are equal.
 *
 * @param path        the GGUF file (absolute and normalised)
 * @param contextSize the context window in tokens, shared by the slots
 * @param threads     CPU threads for generation and prompt evaluation
 * @param gpuLayers   layers offloaded to the GPU (0: CPU only; needs a GPU build of the native library)
 * @param batchSize   the logical batch size for prompt evaluation
 * @param parallel    parallel slots: requests served at once, each with {@code contextSize / parallel} tokens
 * @param seed        the default sampling seed
 * @param embeddings  whether the model computes embeddings (last-token pooling) besides generating
 */
record ModelSpec(Path path, int contextSize, int threads, int gpuLayers, int batchSize, int parallel, long seed,
                 boolean embeddings) {

    /** The binding's parameters; the native log is off (the binding's log callback delivers nothing in 4.2.0). */
    ModelParameters toParameters() {
        ModelParameters parameters = new ModelParameters()
                .setModel(path.toString())
                .setCtxSize(contextSize)
                .setThreads(threads)
                .setThreadsBatch(threads)
                .setBatchSize(batchSize)
                .setParallel(parallel)
                .setSeed(seed)
                .enableJinja()
                .disableLog();
        if (gpuLayers > 0) { // asking for 0 makes a CPU-only build warn on standard error
            parameters.setGpuLayers(gpuLayers);
        }
        if (embeddings) {
            // MEAN pooling aborts the JVM on llama-architecture models, and NONE gives one vector for every input
            parameters.enableEmbedding().setPoolingType(PoolingType.LAST);
        }
        return parameters;
    }

    /** The context window of one slot. */
    int slotContext() {
        return contextSize / parallel;
    }
}
