// Issue 19 at scale: the service locations (D46) and contacts (D47) that bench/list.mjs seeds beside its
// customers, each table with one set-based statement, and the check that the columns the app maintains
// (customers.primary_city, so city_key; the generated search keys and phone digits) read as the app's own
// writes would leave them. `g` is a customer's number in the bench (1…count, in id order).

/** Place names for the locations: none is a billing city of the bench (those are its CITIES). */
const PLACES = `Aberdeen Albany Aloha Amity Anacortes Arlington Ashland Astoria Athena Auburn Aumsville Aurora Baker Bandon
  Banks Battle_Ground Bay_City Bellevue Bellingham Blaine Boardman Boring Bothell Bremerton Brookings Brownsville Buckley
  Burien Burlington Burns Camas Canby Cannon_Beach Carlton Cascade_Locks Castle_Rock Cave_Junction Centralia Chehalis
  Chelan Cheney Chiloquin Clackamas Clatskanie Cle_Elum Colfax Colton Columbia_City Condon Coos_Bay Coquille Cornelius
  Cottage_Grove Coupeville Covington Creswell Culver Dallas Dayton Depoe_Bay Des_Moines Detroit Donald Drain Dufur
  Dundee Dupont Durham Eagle_Point Eatonville Echo Edmonds Elgin Ellensburg Elma Enterprise Enumclaw Ephrata Estacada
  Everett Fairview Falls_City Federal_Way Ferndale Fife Florence Forest_Grove Forks Fossil Gaston Gates Gearhart
  Gervais Gig_Harbor Gladstone Glendale Gold_Beach Gold_Hill Goldendale Grandview Granger Grants_Pass Grass_Valley
  Haines Halfway Halsey Happy_Valley Harrisburg Heppner Hermiston Hoquiam Hood_River Hubbard Idanha Ilwaco Independence
  Irrigon Issaquah Jacksonville Jefferson John_Day Johnson_City Joseph Junction_City Kalama Keizer Kelso Kenmore
  Kennewick Kent King_City Kirkland Klamath_Falls La_Center La_Grande La_Pine Lacey Lafayette Lake_Oswego Lake_Stevens
  Lakeview Lakewood Lebanon Leavenworth Lincoln_City Long_Beach Longview Lostine Lowell Lynden Lynnwood Madras
  Malin Manzanita Maple_Valley Marysville Maupin Maywood_Park McMinnville Mercer_Island Merrill Metolius Mill_City
  Millersburg Milton_Freewater Milwaukie Molalla Monmouth Monroe Montesano Moro Morton Moses_Lake Mosier Mount_Angel
  Mount_Vernon Mountlake_Terrace Mukilteo Myrtle_Creek Myrtle_Point Nehalem Newberg Newcastle Newport North_Bend
  North_Plains Nyssa Oak_Harbor Oakridge Ocean_Shores Olympia Omak Ontario Oregon_City Orting Othello Pacific_City
  Pasco Pendleton Philomath Phoenix Pilot_Rock Port_Angeles Port_Orford Port_Townsend Poulsbo Prineville Pullman
  Puyallup Quincy Rainier Redmond Reedsport Renton Richland Riddle Ridgefield Rockaway_Beach Rogue_River Roseburg
  Roy Ruston Sammamish Sandy Scappoose Scio Seaside Sedro_Woolley Selah Sequim Shady_Cove Shelton Sheridan Sherwood
  Shoreline Silverton Sisters Snohomish Snoqualmie Spokane Springfield Stanfield Stanwood Stayton Steilacoom
  Sublimity Sumner Sunnyside Sutherlin Sweet_Home Talent Tacoma Tangent Tenino The_Dalles Tillamook Toledo Toppenish
  Troutdale Tualatin Tukwila Tumwater Turner Umatilla Union_Gap Vale Veneta Vernonia Waldport Walla_Walla Wallowa
  Warrenton Wasco Washougal Wenatchee West_Linn Westport Wheeler Willamina Wilsonville Winlock Winston Woodburn
  Woodinville Woodland Yachats Yakima Yamhill Yelm Yoncalla Zillah`
  .split(/\s+/)
  .map((s) => s.replace(/_/g, ' '));
/** The places, less any a search for another would also find ("Newport" in "Newport Beach"). */
export const LOCATION_CITIES = PLACES.filter((p) => !PLACES.some((o) => o !== p && o.toLowerCase().includes(p.toLowerCase())));
/** The first fifth are the big towns: half the locations are in them (a few thousand each), half anywhere. */
const BIG = Math.floor(LOCATION_CITIES.length / 5);
/** Area codes of the contacts' phones: none is a customer's (bench/list.mjs AREAS), so no number is both. */
export const CONTACT_AREAS = ['425', '253', '509', '458', '564', '208', '707', '916', '775', '702'];

const sqlList = (items) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]`;
const N = LOCATION_CITIES.length;
/** SQL: the city of customer g's location k (k = 1 is the primary one). */
const cityOf = (g, k) =>
  `(${sqlList(LOCATION_CITIES)})[1 + case when (${g} / 3 + ${k}) % 2 = 0 then (${g} * 31 + ${k} * 17) % ${BIG} else (${g} * 31 + ${k} * 17) % ${N} end]`;
/** SQL: how many locations customer g has: 1 in 10 none, 1 in 100 a landlord with 22, the rest 1–3. */
const locationCount = (g) => `(case when ${g} % 100 = 1 then 22 when ${g} % 10 = 0 then 0 else 1 + ${g} % 3 end)`;

/**
 * For the customers' insert: the primary location's city, which the locations' trigger would write
 * (D46). Set here so the customers are written once (an update of every one would leave a second, dead
 * copy of the table behind); checkParts() proves it equals what the trigger gives.
 */
export const primaryCitySql = (g) => `case when ${locationCount(g)} > 0 then ${cityOf(g, 1)} end`;

/** $1 = organization id, $2 = the id below the bench's first customer. */
const BENCH_CUSTOMERS = `select id, (row_number() over (order by id))::integer as g from customers where org_id = $1::integer and id > $2::integer`;

const INSERT_LOCATIONS_SQL = `
  insert into customer_locations (org_id, customer_id, label, address_line, city, region, postal_code, country, is_primary, created_at)
  select $1::integer, c.id,
         case when k = 1 then 'Home' else 'Rental ' || k end,
         ((c.g * 7 + k * 131) % 9973) || ' ' || (array['Cedar', 'Spruce', 'Willow', 'Fir', 'Maple', 'Birch'])[1 + (c.g + k) % 6] || ' Ave',
         ${cityOf('c.g', 'k')},
         (array['OR', 'WA'])[1 + (c.g + k) % 2],
         '98' || lpad(((c.g * 3 + k) % 1000)::text, 3, '0'),
         'US',
         k = 1,
         now() - make_interval(days => (c.g + k) % 700)
    from (${BENCH_CUSTOMERS}) c, generate_series(1, ${locationCount('c.g')}) as k`;

/** $3 = number of contacts: contact j belongs to customer 2j − 1 (every other one, then around again). */
const INSERT_CONTACTS_SQL = `
  insert into customer_contacts (org_id, customer_id, name, role, email, phone, created_at)
  select $1::integer, c.id,
         v.name,
         (array['Property manager', 'Tenant', 'Spouse', 'Site contact', 'Accounts'])[1 + j % 5],
         case when j % 5 = 0 then null else 'pm.' || j || '@' || (array['property.example', 'lettings.example'])[1 + j % 2] end,
         case when j % 2 = 0 then '(' || v.area || ') 555-' || v.line else v.area || '.555.' || v.line end,
         now() - make_interval(days => j % 700)
    from generate_series(0, $3::integer - 1) as j
    join (${BENCH_CUSTOMERS}) c on c.g = 1 + (2 * j) % (select count(*) from customers where org_id = $1::integer and id > $2::integer)
    cross join lateral (select 'Contact ' || j as name,
                               (${sqlList(CONTACT_AREAS)})[1 + (j / 10000) % ${CONTACT_AREAS.length}] as area,
                               lpad((j % 10000)::text, 4, '0') as line) as v`;

/** The contact phone that request i of a case searches (unique among contacts while j < 100,000). */
export const contactPhone = (j) => `(${CONTACT_AREAS[Math.floor(j / 10000) % CONTACT_AREAS.length]}) 555-${String(j % 10000).padStart(4, '0')}`;
/** Contact j's email, or null for the 1 in 5 without one. */
export const contactEmail = (j) => (j % 5 === 0 ? null : `pm.${j}@${['property.example', 'lettings.example'][j % 2]}`);

/** The triggers that keep customers' columns from their parts (migrations 9 and 15), off for the bulk inserts. */
const PART_TRIGGERS = [
  ['customer_locations', 'customer_locations_primary_city'],
  ['customer_locations', 'customer_locations_parts_key'],
  ['customer_contacts', 'customer_contacts_parts_key'],
];

/** Migration 15: each bench customer's parts_key, as its triggers would leave it, in one statement. */
const PARTS_KEY_SQL = `
  update customers c set parts_key = p.key
    from (select customer_id, string_agg(k, E'\\n' order by o, id) as key
            from (select customer_id, search_key as k, 0 as o, id from customer_locations where org_id = $1::integer
                  union all
                  select customer_id, search_key, 1, id from customer_contacts where org_id = $1::integer) parts
           group by customer_id) p
   where c.org_id = $1::integer and c.id > $2::integer and c.id = p.customer_id`;

/**
 * Inserts the locations and contacts of the bench's customers (ids above `base`); returns counts. The
 * triggers are off for the two statements (customers already carry the primary city, primaryCitySql; a
 * row trigger per part would update a customer 500,000 times), and the parts' search text is then
 * written in one update; checkParts() proves both equal what the triggers give.
 */
export async function insertParts(query, orgId, base, contacts) {
  for (const [table, trigger] of PART_TRIGGERS) await query(`alter table ${table} disable trigger ${trigger}`, []);
  try {
    await query(INSERT_LOCATIONS_SQL, [orgId, base]);
    await query(INSERT_CONTACTS_SQL, [orgId, base, contacts]);
  } finally {
    for (const [table, trigger] of PART_TRIGGERS) await query(`alter table ${table} enable trigger ${trigger}`, []);
  }
  await query(PARTS_KEY_SQL, [orgId, base]);
  await query('vacuum analyze customer_locations', []);
  await query('vacuum analyze customer_contacts', []);
  return checkParts(query, orgId);
}

/** The maintained columns as the app's writes leave them; throws when any customer's differ. */
async function checkParts(query, orgId) {
  const [r] = await query(
    `select (select count(*) from customer_locations where org_id = $1) as locations,
            (select count(*) from customer_contacts where org_id = $1) as contacts,
            (select count(*) from customers c where c.org_id = $1 and c.primary_city is distinct from
               (select l.city from customer_locations l where l.customer_id = c.id and l.is_primary)) as wrong_city,
            (select count(*) from customers c where c.org_id = $1 and c.city_key is distinct from
               coalesce(lower(coalesce(c.primary_city, c.city)), chr(1114111))) as wrong_key,
            (select count(*) from customer_contacts where org_id = $1 and phone_digits is distinct from crm_phone_digits(phone)) as wrong_digits,
            (select count(*) from customer_locations where org_id = $1 and search_key not like '%' || crm_fold(city) || '%') as wrong_search,
            (select count(*) from customers c where c.org_id = $1 and c.parts_key is distinct from
               (select string_agg(k, E'\\n' order by o, id) from (
                  select search_key as k, 0 as o, id from customer_locations where org_id = $1 and customer_id = c.id
                  union all
                  select search_key, 1, id from customer_contacts where org_id = $1 and customer_id = c.id) parts)) as wrong_parts`,
    [orgId],
  );
  const wrong = Number(r.wrong_city) + Number(r.wrong_key) + Number(r.wrong_digits) + Number(r.wrong_search) + Number(r.wrong_parts);
  if (wrong > 0) throw new Error(`seeded locations/contacts differ from the app's writes: ${JSON.stringify(r)}`);
  return `${Number(r.locations).toLocaleString('en-US')} locations, ${Number(r.contacts).toLocaleString('en-US')} contacts (primary cities, city keys, search keys, the customers' parts keys and phone digits checked)`;
}
