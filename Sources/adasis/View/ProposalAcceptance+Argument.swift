import ArgumentParser
import Routing

extension ProposalAcceptance: ExpressibleByArgument {}
