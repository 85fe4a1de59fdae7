import ADASISv2
import Horizon

extension ADASISProvider {
    /// The engine's tree is the same but the content of its links changed in place (road objects
    /// laid over the map changed: traffic incidents started or ended, `HorizonEngine.refreshFeatures()`).
    /// The next ticks compare every path's content with what was sent: new objects go out as new
    /// content, changed ones with Update = 1, and objects that are gone are withdrawn (their marks
    /// again with Update = 1 and Distance1 = 1023, `Docs/adasis-conventions.md`). The paths keep
    /// their indices; nothing else is sent again.
    public func contentChanged(tree: PathTree) {
        ingest(
            fix: fix, match: match, tree: tree, vehicleOffset: fixOffset, events: [], routeActive: routeActive)
        for id in tree.paths.keys {
            dirtyFrom[id] = -.infinity
            objectsChanged.insert(id)
        }
        visitOrder.wakeAll()
    }

    /// The withdrawal of a road-object mark that was sent and is gone: the same PROFILE SHORT
    /// 18/19/20 with Distance1 = 1023 (flagged as an Update when sent).
    static func withdrawal(of atom: ContentAtom) -> ContentAtom? {
        guard case .objectMark = atom.key.kind, case .profileShort(var message) = atom.message else { return nil }
        message.distance1 = 1023
        return ContentAtom(key: atom.key, message: .profileShort(message))
    }
}
