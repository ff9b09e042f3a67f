package dev.pagantic.archfixture.violating.inference;

/** The fixture's Engine SPI. */
public interface Engine extends AutoCloseable {

    String infer(InferenceRequest request);

    @Override
    void close();
}
