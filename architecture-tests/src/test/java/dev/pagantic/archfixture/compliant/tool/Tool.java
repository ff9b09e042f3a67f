package dev.pagantic.archfixture.compliant.tool;

/** The fixture's tool. */
public interface Tool {

    String execute(String arguments);
}
