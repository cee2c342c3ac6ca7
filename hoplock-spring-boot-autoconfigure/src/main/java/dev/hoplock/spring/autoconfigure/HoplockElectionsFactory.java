package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.leader.ElectorCustomizer;
import dev.hoplock.spring.leader.HoplockElections;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the electors of {@link HoplockElections} from the properties: one per election, each over the shared backend
 * wrapped by every {@link BackendDecorator} and, outermost, by the application's {@link Candidacy}, adjusted by every {@link ElectorCustomizer}, validated, not started.
 *
 * <p>Guarantees: either every elector is built or none is left behind (already built ones are closed) and the first
 * invalid setting is reported as a {@link dev.hoplock.spring.HoplockConfigurationException} naming its property.
 * One owner id is generated per call and shared by all elections that set none.
 */
final class HoplockElectionsFactory {

    private final HoplockProperties properties;
    private final List<BackendDecorator> decorators;
    private final List<ElectorCustomizer> customizers;
    private final Candidacy candidacy;

    HoplockElectionsFactory(HoplockProperties properties, List<BackendDecorator> decorators,
            List<ElectorCustomizer> customizers, Candidacy candidacy) {
        this.properties = properties;
        this.candidacy = candidacy;
        this.decorators = List.copyOf(decorators);
        this.customizers = List.copyOf(customizers);
    }

    HoplockElections create(Backend backend) {
        List<ElectionDefinition> definitions = ElectionDefinitions.resolve(properties, OwnerIds.generate());
        Map<String, Elector> electors = new LinkedHashMap<>();
        try {
            for (ElectionDefinition definition : definitions) {
                electors.put(definition.name(), build(definition, backend));
            }
        } catch (RuntimeException e) {
            electors.values().forEach(Elector::close);
            throw e;
        }
        return new HoplockElections(electors, ElectionDefinitions.defaultName(definitions), candidacy);
    }

    private Elector build(ElectionDefinition definition, Backend backend) {
        Backend decorated = BackendDecorator.applyAll(decorators, BackendDecorator.Primitive.ELECTION,
                definition.name(), backend);
        // Outermost, so that a claim refused while withdrawn is never sent, timed or counted as a store request.
        decorated = candidacy.guard(decorated);
        try {
            Elector.Builder builder = definition.applyTo(Elector.builder(decorated, definition.key()));
            for (ElectorCustomizer customizer : customizers) {
                customizer.customize(definition.name(), builder);
            }
            return builder.build();
        } catch (InvalidSettingException e) {
            throw InvalidSettings.translate(definition, e);
        }
    }
}
