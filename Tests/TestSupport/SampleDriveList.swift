/// The ground-truth drives of Data/drives and the OSM extract each was made on
/// (Data/drives/README.md): the Helsinki sample, or the synthetic suburb for the roads the sample
/// lacks (a motorway with ramps, roundabouts, a service road beside a main road).
public enum SampleDriveList {
    /// The Helsinki sample extract.
    public static let helsinki = "Data/helsinki.osm.pbf"
    /// The synthetic suburb extract (Tools/suburb_extract.py).
    public static let suburb = "Data/drives/suburb.osm.pbf"
    /// Every drive's name (`Data/drives/<name>.csv`, and `<name>-noisy.csv` with 5 m noise).
    public static let names = [
        "esplanadi", "kaisaniemi", "kamppi", "kruununhaka", "mannerheimintie", "ullanlinna", "uturn",
        "motorway", "roundabouts", "service-road",
    ]
    /// The drives made on ``suburb``.
    public static let suburbNames: Set = ["motorway", "roundabouts", "service-road"]

    /// The extract `drive` was made on, relative to the repository root.
    public static func extract(of drive: String) -> String { suburbNames.contains(drive) ? suburb : helsinki }
}
