package dev.pagantic.archfixture.compliant.inference;

/** The fixture's Engine SPI. */
public interface Engine extends AutoCloseable {

    String infer(Request request);

    @Override
    void close();
}
