extension RoadObjectTracker {
    /// Takes the objects of `engine`'s main path after its last update
    /// (``HorizonEngine/roadObjects(on:)``), with the vehicle's offset and what it drove since the
    /// update before: `driven` metres (its speed times the time between the fixes) taken as far as
    /// the engine says the vehicle got forward (``HorizonEngine/forwardTravel(_:)``: before turning
    /// round) and along the main path it left (``HorizonEngine/travelAlongPreviousMainPath(_:)``:
    /// through the branch point of a side path it turned onto).
    public mutating func update(mainPathObjects objects: [PathRoadObject], after engine: HorizonEngine, driven: Double)
        -> [RoadObjectEvent]
    {
        update(
            mainPathObjects: objects, vehicleOffset: engine.vehicleOffset, travelled: engine.forwardTravel(driven),
            travelledAlongPreviousPath: engine.travelAlongPreviousMainPath(driven))
    }
}
