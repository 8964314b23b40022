// BatonExampleAPI's operation types are generated during the build by BatonCodegenPlugin, from
// the documents in graphql/ against the example server's schema (see graphql/baton.json).
import BatonAPI
