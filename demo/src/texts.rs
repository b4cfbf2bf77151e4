//! The demo shop's words: blog and news posts (several paragraphs under
//! headings, each tied to a room and to the category of the products it
//! mentions) and the facts the policy pages are written from. The policy
//! pages themselves are assembled in [`super::content`], from the same
//! settings the shop runs on (delivery charges, EMI plans, warranties).

/// A post: its title, the room theme of its pictures
/// ([`super::images::ROOM_THEMES`]), the sub-category (index into
/// [`super::catalogue::SUBS`]) whose products it links to, a one-line
/// summary, an opening paragraph and its sections (heading, paragraph).
pub(super) struct PostText {
    pub title: &'static str,
    pub theme: usize,
    pub sub: Option<usize>,
    /// The sizes of the products it may link to (empty: any): a post about
    /// small rooms links no king-size bed.
    pub sizes: &'static [&'static str],
    pub summary: &'static str,
    pub intro: &'static str,
    pub sections: &'static [(&'static str, &'static str)],
}

/// Room themes, by name.
const BEDROOM: usize = 0;
const LIVING: usize = 1;
const DINING: usize = 2;
const OFFICE: usize = 3;
const KIDS: usize = 4;
const DRESSING: usize = 5;

pub(super) const BLOGS: [PostText; 20] = [
    PostText {
        title: "How to choose a bed for a small room",
        theme: BEDROOM,
        sub: Some(0),
        sizes: &["Single", "Semi-Double"],
        summary: "Measure twice, pick the frame second: a guide to beds for rooms under 120 square feet.",
        intro: "Most bedrooms in Dhaka flats are between 100 and 140 square feet, and the bed takes half of that. The right frame leaves room to open the wardrobe and walk round the foot of the bed; the wrong one turns the room into a mattress with walls.",
        sections: &[
            ("Start with the floor, not the catalogue", "Draw the room on paper and mark the door swing, the window and the wardrobe doors. Leave at least 24 inches on the side you get out of bed and 30 inches in front of the wardrobe. In a 10 by 11 foot room that usually means a semi-double (6.5 by 4 feet) rather than a queen."),
            ("Storage beats size", "A storage or box bed holds quilts, winter clothes and suitcases that would otherwise need a second almirah. Gas-strut lids open with one hand; drawers need 20 inches of clear floor beside the bed, so check the plan before choosing them."),
            ("Low and light", "A low platform bed and a pale finish such as natural teak or white make a small room look taller. Skip tall footboards: they cut the room in two when you stand at the door."),
        ],
    },
    PostText {
        title: "Segun or mahogany: which wood lasts longer",
        theme: BEDROOM,
        sub: Some(1),
        sizes: &[],
        summary: "Both last decades when seasoned properly; here is how they differ in grain, weight, colour and price.",
        intro: "Customers ask this at every showroom. The honest answer is that a well-seasoned piece of either wood will outlive its first owner; the differences are in weight, grain, colour and what you pay.",
        sections: &[
            ("Segun (teak)", "Segun is oily, dense and naturally resistant to termites and damp, which is why it has been the wood of choice for Bangladeshi almirahs and khats for generations. It is heavy, it holds screws well, and its golden grain darkens gently with age. It costs the most."),
            ("Mahogany", "Mahogany is lighter and easier to carve, with a straight reddish grain that takes a deep polish. It moves a little more with the seasons, so we kiln-dry it to 12 percent moisture before it is cut. It costs about a fifth less than segun for the same design."),
            ("What we recommend", "For wardrobes and beds that stand against outside walls, choose segun. For dining chairs and showcases, where carving and a lighter weight matter, mahogany is an excellent choice. Both carry our five-year frame warranty, termites included."),
        ],
    },
    PostText {
        title: "Caring for wooden furniture in the monsoon",
        theme: DINING,
        sub: Some(9),
        sizes: &[],
        summary: "Humidity above 90 percent swells doors and drawers; five habits keep wood calm until October.",
        intro: "From June to September the air in most of Bangladesh holds as much water as it can. Wood takes some of it in: doors stick, drawers jam and a white bloom can appear on polished tops. None of it is permanent if you act early.",
        sections: &[
            ("Keep furniture off the walls", "Leave a hand's width between wardrobes and outside walls so that air moves behind them. Damp walls are the main cause of mould on back panels."),
            ("Wipe, do not wash", "Use a soft dry cloth on polished wood. Water left on a table top for an hour is enough to raise the grain; wipe spills at once and never use a wet mop on furniture legs."),
            ("Let it breathe", "Open wardrobes for an hour on dry days, and put a sachet of silica gel or a bowl of rock salt in closed cupboards. If a drawer sticks, rub a candle along its runners instead of forcing it."),
        ],
    },
    PostText {
        title: "Five sofa layouts for a Dhaka flat",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "From the classic 3+2+1 to an L-shape in the corner: layouts that fit a 12 by 14 foot drawing room.",
        intro: "A typical drawing room in a Dhaka flat measures about 12 by 14 feet, with a door on one side and a window or balcony on the other. These five layouts work in that space and leave a path to the balcony.",
        sections: &[
            ("The 3+2+1 around a centre table", "The traditional set still seats the most guests. Put the three-seater against the longest wall, facing the window, and keep 16 to 18 inches between the sofas and the centre table."),
            ("An L-shape in the corner", "A corner sofa seats five and leaves the middle of the room open. It works best when the TV sits on the opposite wall and the door is not in the corner you choose."),
            ("Two three-seaters face to face", "For families who talk more than they watch TV, two sofas facing each other over a long tea table make a room feel like a baithak. Add a divan under the window for extra seating at Eid."),
        ],
    },
    PostText {
        title: "Picking a dining table for six",
        theme: DINING,
        sub: Some(9),
        sizes: &["6 Seater"],
        summary: "A six-seater needs about 66 by 36 inches of table and three feet of space all round it.",
        intro: "Six is the most common table size we sell, and the most common mistake is buying the table before measuring the room. Each diner needs about 24 inches of edge, and every chair needs room to pull back.",
        sections: &[
            ("Measure the room first", "A 66 by 36 inch table needs a space of at least 138 by 108 inches once you allow 36 inches behind every chair. If the dining area is also a passage, allow 42 inches on that side."),
            ("Wood or glass", "Solid wood tops last decades and can be refinished. Tempered glass on a wooden or metal base makes a small room look larger but shows every fingerprint. Extendable tables are a good middle course for families who host at Eid."),
            ("Chairs that fit under", "Check that the chair seats slide under the apron: seat height of 18 inches and a table height of 30 inches is the standard pairing."),
        ],
    },
    PostText {
        title: "Making a home office that works",
        theme: OFFICE,
        sub: Some(12),
        sizes: &[],
        summary: "A table at the right height, a chair that supports the lower back, and light from the side.",
        intro: "Many of our customers now work from home two or three days a week, often from a corner of the bedroom. A good home office needs less space than you think, but it needs the right three things.",
        sections: &[
            ("The table", "A computer table 30 inches high and at least 24 inches deep keeps the screen an arm's length away. A drawer unit on one side keeps papers off the bed."),
            ("The chair", "Sit with your feet flat and your knees level with your hips. An ergonomic or swivel chair with lumbar support prevents the back pain that comes from working on the sofa."),
            ("The light", "Put the desk beside the window, not facing it, so that the screen does not glare. A floor lamp behind your shoulder is enough for evening work."),
        ],
    },
    PostText {
        title: "Kids' rooms that grow with them",
        theme: KIDS,
        sub: Some(15),
        sizes: &[],
        summary: "Buy a single bed and a study table once, and they last from age five to fifteen.",
        intro: "Children outgrow furniture faster than they outgrow clothes, unless the furniture is chosen to grow with them. The trick is to buy adult proportions in child-friendly finishes.",
        sections: &[
            ("Start with a single bed", "A toddler bed is lovely for two years; a single bed (6.5 by 3.5 feet) with a guard rail lasts until university. Take the rail off when the child is seven or eight."),
            ("A real study table", "A table 24 inches deep with a book shelf will serve from the first homework to the board exams. Add a cushion to the chair while the child is small instead of buying a smaller chair."),
            ("Safe finishes", "Our kids' furniture is finished with lead-free paints and lacquers, and every corner is rounded. Anchor tall shelves to the wall whatever their make."),
        ],
    },
    PostText {
        title: "Wardrobe storage ideas",
        theme: DRESSING,
        sub: Some(1),
        sizes: &[],
        summary: "How to fit a family's clothes, saris and bedding into a three-door wardrobe.",
        intro: "A three-door wardrobe holds more than most people manage to fit in it. The difference is in how the inside is planned.",
        sections: &[
            ("Hang what creases, fold the rest", "Shirts, panjabis and salwar kameez go on the rail; saris keep best folded flat on a shelf with tissue between them. Sweaters and shawls belong in the top shelf, where they stay dry."),
            ("Use the locker drawer", "Jewellery, documents and cash belong in the locked drawer, not in a handbag on the top shelf."),
            ("Bedding elsewhere", "Quilts and pillows take half a wardrobe. A storage bed or a box bed frees that space for clothes."),
        ],
    },
    PostText {
        title: "Colours that make a room feel larger",
        theme: LIVING,
        sub: Some(6),
        sizes: &[],
        summary: "Light walls, light floors and one dark accent: colour tricks for small rooms.",
        intro: "Colour changes how big a room feels more than any piece of furniture does. Three simple rules work in every room.",
        sections: &[
            ("Keep the big surfaces light", "Walls, floors and the largest piece of furniture should be close in tone. A white or natural teak wardrobe against a cream wall almost disappears."),
            ("One dark accent", "Choose one piece in a deep colour, such as a walnut centre table or a royal blue sofa, and keep everything else quiet. Two accents start to compete."),
            ("Let light bounce", "A mirror opposite the window doubles the daylight in the room. Glossy finishes reflect light too, but show dust more than matte ones."),
        ],
    },
    PostText {
        title: "Why engineered wood is not cheap wood",
        theme: OFFICE,
        sub: Some(14),
        sizes: &[],
        summary: "Board, veneer and laminate: what engineered wood is, and where it beats solid timber.",
        intro: "Engineered wood is made of wood fibres or particles pressed into boards and faced with veneer or laminate. It costs less than solid timber, but that is not the only reason to choose it.",
        sections: &[
            ("Where it wins", "Engineered boards do not warp or crack with the seasons, which makes them ideal for wide doors, large table tops and office furniture. They take every colour, from white to grey."),
            ("Where it does not", "Boards do not like standing water: a leaking pipe or a wet floor will swell an edge. Keep them off damp floors and wipe spills at once."),
            ("How we use it", "Our engineered wood furniture uses moisture-resistant board with sealed edges, and carries a two-year warranty on the board and fittings."),
        ],
    },
    PostText {
        title: "Choosing a bedside table",
        theme: BEDROOM,
        sub: Some(3),
        sizes: &[],
        summary: "The right height, the right drawers and the right distance from the bed.",
        intro: "A bedside table is the piece you reach for in the dark, so it should be exactly where your hand expects it.",
        sections: &[
            ("Height", "The top should be level with the top of the mattress, or up to two inches higher. Measure your mattress before you order."),
            ("Drawers or shelf", "Two drawers hide medicines, chargers and reading glasses; an open shelf is handy for books. In a small room a compact night stand with one drawer is enough."),
            ("A pair or one", "Matching pair on both sides suits a queen or king bed. Against a wall, one table on the open side is all a single or semi-double needs."),
        ],
    },
    PostText {
        title: "Lighting a living room",
        theme: LIVING,
        sub: Some(19),
        sizes: &[],
        summary: "Three layers of light: the ceiling, the lamp and the window.",
        intro: "One tube light in the middle of the ceiling makes any room look flat. Good rooms mix three kinds of light.",
        sections: &[
            ("General light", "Ceiling lights give enough light to clean and to find things. Warm white bulbs (2700 to 3000 K) are kinder to evening visits than cool white."),
            ("Task light", "A floor lamp beside the sofa gives light for reading without lighting the whole room. Put it behind the shoulder of the person reading."),
            ("Daylight", "Keep heavy furniture away from the window, and use light curtains that can be drawn back fully during the day."),
        ],
    },
    PostText {
        title: "Furnishing a rented flat",
        theme: LIVING,
        sub: Some(5),
        sizes: &[],
        summary: "Pieces that move house easily, fit most rooms and do not damage walls.",
        intro: "Most families in our cities rent, and move every few years. Furniture for a rented flat has to survive the truck, the stairs and a different floor plan.",
        sections: &[
            ("Choose pieces that come apart", "Beds and wardrobes that bolt together go up narrow stairs and round tight landings. Ask whether the piece is delivered assembled or flat."),
            ("Flexible seating", "A divan seats three by day and sleeps a guest at night, and fits almost any wall. It is often a better first purchase than a full sofa set."),
            ("Spare the walls", "Choose free-standing shelves and mirrors with hooks rather than pieces that need heavy anchoring; landlords prefer small holes."),
        ],
    },
    PostText {
        title: "Rugs that survive a Bangladeshi home",
        theme: LIVING,
        sub: Some(20),
        sizes: &[],
        summary: "Flat weaves, washable fibres and the right size under a sofa.",
        intro: "A rug warms a tiled floor and pulls a seating area together, but in a humid, dusty climate it needs to be chosen with care.",
        sections: &[
            ("Size", "Under a sofa set, the rug should be large enough for the front legs of every seat to stand on it: 5 by 7 feet for a small room, 6 by 9 feet for a 3+2+1 set."),
            ("Weave", "Flat-woven rugs shed less dust and dry faster after a wash than deep piles. They also sit flat under doors."),
            ("Care", "Shake or vacuum once a week and turn the rug every few months so that it fades evenly. Dry it in shade after washing."),
        ],
    },
    PostText {
        title: "Preparing your home for Eid guests",
        theme: DINING,
        sub: Some(10),
        sizes: &[],
        summary: "Extra seats, a bigger table and space to move: get the house ready a week early.",
        intro: "Eid brings more guests through the door in two days than most homes see in a month. A week of planning saves a lot of rearranging on the day.",
        sections: &[
            ("Count the seats", "Add up sofas, chairs and divans. Four extra dining chairs cost less than people think and are useful all year."),
            ("Make the table longer", "An extendable dining table or a second small table placed end to end turns a six-seater into a ten-seater for the day."),
            ("Clear a path", "Move the centre table aside on the day and keep a clear route from the door to the dining table and to the wash basin."),
        ],
    },
    PostText {
        title: "The right height for a study table",
        theme: KIDS,
        sub: Some(16),
        sizes: &[],
        summary: "Elbows at table height, feet flat on the floor: fitting a desk to a child.",
        intro: "A child who studies at the wrong height soon complains of a sore neck or back. Getting the table and chair right is simple.",
        sections: &[
            ("The rule", "Sitting up straight, the child's elbows should be level with the table top and their feet flat on the floor or on a footrest."),
            ("Typical heights", "Children of six to nine usually need a table 24 to 26 inches high; from ten onwards, the standard 30 inches with an adjustable chair."),
            ("Room for books", "A depth of 24 inches holds a textbook, a notebook and a laptop side by side."),
        ],
    },
    PostText {
        title: "Leather or fabric sofa",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "Leather wipes clean, fabric stays cool: choosing upholstery for our climate.",
        intro: "The choice between leather and fabric comes down to heat, children and how you clean.",
        sections: &[
            ("Leather", "Genuine leather wipes clean and gets better with age, but it is warm to sit on in June without a fan or air conditioning. Condition it twice a year."),
            ("Fabric", "Woven fabrics breathe and stay cool, and come in more colours. Choose zipped, removable covers if you have children, and vacuum weekly."),
            ("Our advice", "For a drawing room used mostly for guests, leather looks good for years. For the family room where everyone sits every day, fabric is more comfortable."),
        ],
    },
    PostText {
        title: "Keeping termites away",
        theme: BEDROOM,
        sub: Some(0),
        sizes: &[],
        summary: "Termites come from the ground and the walls; stop them before they reach the wood.",
        intro: "Termites destroy more furniture in Bangladesh than any other cause. They come up through floors and walls, and they prefer damp, untreated wood.",
        sections: &[
            ("Choose treated wood", "All our solid wood is seasoned and treated against termites before it is cut, and our frame warranty covers termite damage for five years."),
            ("Watch the walls", "Mud tubes on walls or skirting boards are the first sign. Call a pest control service at once; do not just scrape them off."),
            ("Lift and move", "Move furniture away from the wall twice a year and check the back and the legs, especially on ground floors."),
        ],
    },
    PostText {
        title: "A guide to EMI on furniture",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "How card instalments work, which banks offer them, and what they cost.",
        intro: "Card instalments (EMI) let you spread the price of a sofa set or a bed over three to twelve months. Here is how it works in our shop.",
        sections: &[
            ("Who can use it", "EMI is offered on products from ৳20,000, paid online with a credit card from one of our partner banks. The product page shows the banks offered and the monthly amount."),
            ("What it costs", "Three-month plans are interest-free at every partner bank, and most banks also offer six months at 0 percent. Nine- and twelve-month plans add simple yearly interest, shown on our EMI policy page."),
            ("How to apply", "Choose card payment at checkout, then choose EMI on the bank's payment page. The bank converts the payment into instalments on your card statement."),
        ],
    },
    PostText {
        title: "Moving house without scratches",
        theme: DRESSING,
        sub: Some(11),
        sizes: &[],
        summary: "Empty, wrap, lift and label: moving furniture safely.",
        intro: "A move is the riskiest day in a piece of furniture's life. Most damage happens in the first and last ten metres, on stairs and in doorways.",
        sections: &[
            ("Empty everything", "Take out drawers and shelves, and remove glass from showcases and mirrors. Wrap glass separately and carry it upright."),
            ("Wrap the corners", "Blankets, bubble wrap or cardboard on every corner prevent most scratches. Tape the doors shut through the wrapping, never on the finish."),
            ("Lift, do not drag", "Drag a wardrobe and the legs break or the floor scratches. Two people should lift, and large pieces should be taken apart."),
        ],
    },
];

pub(super) const NEWS: [PostText; 20] = [
    PostText {
        title: "New showroom opens in Bashundhara",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "Our largest showroom in Dhaka opens with every collection on display.",
        intro: "Our Bashundhara showroom at Block C, Bashundhara R/A is now open from 10 am to 9 pm, Saturday to Thursday. It is our largest in Dhaka, with every bedroom, living and dining collection set up as complete rooms.",
        sections: &[
            ("What you will find", "Three floors of furniture, a fabric library for sofas and sets, and a kids' corner where children can try beds and study tables."),
            ("Parking and access", "The showroom has its own parking and a lift to every floor."),
        ],
    },
    PostText {
        title: "Weekly hours at our Rangpur showroom",
        theme: BEDROOM,
        sub: Some(0),
        sizes: &[],
        summary: "The Rangpur showroom on Station Road is open Saturday to Thursday, 10 am to 9 pm.",
        intro: "Customers from across Rangpur division can now visit the Station Road showroom six days a week, from 10 am to 9 pm. It is closed on Fridays, like all our showrooms.",
        sections: &[
            ("Delivery in the north", "Orders from Rangpur, Dinajpur, Kurigram and the other northern districts are delivered from our Rangpur store within 72 hours when the pieces are in stock."),
            ("Ordering by phone", "Call the hotline or message us to order; our staff can send photos of any piece on display."),
        ],
    },
    PostText {
        title: "Pre-booking opens for the new bedroom collection",
        theme: BEDROOM,
        sub: Some(0),
        sizes: &[],
        summary: "Reserve a piece from the new collection with a part payment; delivery in three to four weeks.",
        intro: "Pieces of our new bedroom collection can now be pre-booked online and in every showroom. Pay between 20 and 50 percent today, depending on the piece, and the rest on delivery.",
        sections: &[
            ("How pre-booking works", "A pre-booked piece is made to order in our Gazipur factory and delivered in three to four weeks. A cart can hold pre-booked pieces or ordinary ones, not both."),
            ("If we are late", "If we miss the promised date by more than two weeks, you can cancel and get your part payment back in full."),
        ],
    },
    PostText {
        title: "Furniture donated to flood-hit schools in Sunamganj",
        theme: KIDS,
        sub: Some(16),
        sizes: &[],
        summary: "Our team delivered 400 desks and benches to twelve schools after the floods.",
        intro: "After this year's floods damaged schools across Sunamganj, our Gazipur factory built and delivered 400 desks and benches to twelve primary schools.",
        sections: &[
            ("Built to last", "The desks are made of treated segun wood that stands up to damp classrooms, with the same five-year frame warranty as our own furniture."),
            ("Thanks to our staff", "More than sixty factory workers volunteered weekend shifts to finish the order in three weeks."),
        ],
    },
    PostText {
        title: "Flash sales now switch at the exact minute",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "Sale prices start and end at the announced minute, Dhaka time.",
        intro: "Every flash sale now starts and ends exactly at the time shown on its countdown, in Dhaka time. The price in your cart is always the price at the moment you check out.",
        sections: &[
            ("What changes for you", "If the sale ends while a product is in your cart, the cart shows the regular price at once; if a sale starts, the lower price appears without reloading."),
            ("Where to find sales", "The running sale and the next one are always on the Flash Sale page and on the home page."),
        ],
    },
    PostText {
        title: "Free delivery inside Dhaka from ৳3,000",
        theme: DINING,
        sub: Some(10),
        sizes: &[],
        summary: "Orders of ৳3,000 or more are delivered free inside Dhaka; from ৳5,000 anywhere in Bangladesh.",
        intro: "Delivery inside Dhaka is now free on every order of ৳3,000 or more, and free across the rest of the country from ৳5,000. Smaller orders pay ৳200 inside Dhaka and ৳300 elsewhere.",
        sections: &[
            ("Assembly included", "Our delivery team assembles beds, wardrobes and tables in your home at no extra charge."),
            ("Delivery times", "Pieces in stock arrive within 72 hours, Fridays and public holidays excepted. Made-to-order pieces take 10 to 15 working days."),
        ],
    },
    PostText {
        title: "Our Gazipur factory goes solar",
        theme: OFFICE,
        sub: None,
        sizes: &[],
        summary: "Rooftop panels now supply a third of the factory's electricity.",
        intro: "Solar panels on the roofs of our Board Bazar factory in Gazipur now produce about a third of the electricity the factory uses on a sunny day.",
        sections: &[
            ("Why it matters", "Kiln-drying timber uses a great deal of power. Drying wood with solar power during the day cuts both our costs and our emissions."),
            ("Next steps", "We plan to cover the warehouse roofs next year and to switch our delivery vans in Dhaka to electric ones as they become available."),
        ],
    },
    PostText {
        title: "Winter collection launched",
        theme: BEDROOM,
        sub: Some(20),
        sizes: &[],
        summary: "Warm colours, woven rugs and upholstered beds for the cool months.",
        intro: "Our winter collection brings warm walnut and dark brown finishes, woven rugs in beige and blue, and fabric-covered headboards to the showrooms.",
        sections: &[
            ("Rugs for tiled floors", "Tiled floors are cold from December to February. The new rugs come in three sizes, from 4 by 6 to 6 by 9 feet."),
            ("Available online", "Every piece of the collection is online with its photos, sizes and prices."),
        ],
    },
    PostText {
        title: "Card instalments with five partner banks",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "EMI for 3 to 12 months with City Bank, BRAC Bank, EBL, Dutch-Bangla Bank and Standard Chartered.",
        intro: "Customers with a credit card from City Bank, BRAC Bank, Eastern Bank, Dutch-Bangla Bank or Standard Chartered can now pay for furniture from ৳20,000 in instalments of 3, 6, 9 or 12 months.",
        sections: &[
            ("Interest-free plans", "Three-month plans are free of interest at all five banks, and six-month plans at four of them. Longer plans carry a low yearly rate, listed on our EMI policy page."),
            ("How to use it", "Choose card payment at checkout, then the EMI plan on the bank's page."),
        ],
    },
    PostText {
        title: "Showrooms open late during Ramadan",
        theme: DINING,
        sub: Some(9),
        sizes: &[],
        summary: "During Ramadan our showrooms stay open after iftar until 11 pm.",
        intro: "During Ramadan all our showrooms open at 11 am, close for iftar, and reopen until 11 pm, so that families can shop together in the evening.",
        sections: &[
            ("Orders before Eid", "Pieces in stock ordered by the 20th of Ramadan are delivered before Eid inside Dhaka and to divisional cities."),
            ("Online at any hour", "The online shop takes orders around the clock; our hotline answers from 9 am to 9 pm every day."),
        ],
    },
    PostText {
        title: "Meet us at the furniture fair at Bashundhara ICC",
        theme: LIVING,
        sub: Some(6),
        sizes: &[],
        summary: "Our stall shows complete living and dining rooms, with fair-only prices on display pieces.",
        intro: "This year's international furniture fair at the Bashundhara convention centre has a large stall of ours, with complete living and dining rooms set up to walk through.",
        sections: &[
            ("Display pieces", "Pieces shown at the fair are sold at the end of the fair with their full warranty."),
            ("Designers on hand", "Our interior designers will be at the stall every day to help plan rooms from your floor plans."),
        ],
    },
    PostText {
        title: "New fabric range for sofas and sets",
        theme: LIVING,
        sub: Some(4),
        sizes: &[],
        summary: "Velvet maroon, jute beige, linen grey, leatherette black and cotton blue.",
        intro: "Sofas and product sets can now be ordered in five new fabrics: velvet maroon, jute beige, linen grey, leatherette black and cotton blue.",
        sections: &[
            ("See them in person", "Every showroom has swatches of the full range; the product set pages show each fabric too."),
            ("Made to order", "Sets in a fabric not in stock are made to order in 10 to 15 working days."),
        ],
    },
    PostText {
        title: "Hotline hours extended",
        theme: OFFICE,
        sub: None,
        sizes: &[],
        summary: "Our hotline now answers from 9 am to 9 pm, every day of the week.",
        intro: "Our customer care hotline, 09612345678, now answers every day of the week, Fridays included, from 9 am to 9 pm.",
        sections: &[
            ("What we can help with", "Orders, delivery dates, changes of address, warranty claims and questions about any product."),
            ("Other ways to reach us", "Email care@example.com, or use the contact form on the website; we answer within one working day."),
        ],
    },
    PostText {
        title: "Kids collection wins a design award",
        theme: KIDS,
        sub: Some(15),
        sizes: &[],
        summary: "Our kids' beds with guard rails were recognised for safety and design.",
        intro: "Our kids' collection, designed in-house and made in Gazipur, received a national design award for safe, practical furniture for children.",
        sections: &[
            ("What the jury liked", "Rounded corners, lead-free finishes and beds that convert from a toddler's bed with a guard rail to a bed a teenager can use."),
            ("Where to see it", "The full kids' collection is on display in the Bashundhara, Dhanmondi and Agrabad showrooms."),
        ],
    },
    PostText {
        title: "GEC showroom in Chattogram renovated",
        theme: DINING,
        sub: Some(11),
        sizes: &[],
        summary: "The GEC Circle showroom reopens with a new dining and showcase floor.",
        intro: "Our showroom at GEC Circle, Chattogram has reopened after renovation, with a whole floor of dining tables, chairs and showcases.",
        sections: &[
            ("Opening hours", "10 am to 9 pm, Saturday to Thursday."),
            ("Delivery in Chattogram division", "Orders from Chattogram, Cox's Bazar, Cumilla and Feni are delivered from the Chattogram store."),
        ],
    },
    PostText {
        title: "Recycled packaging on every delivery",
        theme: DRESSING,
        sub: None,
        sizes: &[],
        summary: "Cardboard and blankets instead of plastic wrap, collected back after assembly.",
        intro: "Every delivery now leaves our warehouse wrapped in recycled cardboard and reusable blankets instead of plastic film.",
        sections: &[
            ("We take it back", "Our delivery team collects the packaging after assembly, so you are not left with a pile of cardboard."),
            ("Less waste", "Reusing blankets saves about two tonnes of plastic film a year."),
        ],
    },
    PostText {
        title: "Track your order online",
        theme: OFFICE,
        sub: None,
        sizes: &[],
        summary: "Follow your order from the factory to your door with its number and your mobile.",
        intro: "You can now follow an order online: enter the order number from your confirmation and the mobile number you ordered with on the Track Order page.",
        sections: &[
            ("What you will see", "Whether the order is confirmed, being made, on its way or delivered, with the expected date."),
            ("No account needed", "Tracking works for guest orders too."),
        ],
    },
    PostText {
        title: "Sylhet showroom celebrates its anniversary",
        theme: LIVING,
        sub: Some(5),
        sizes: &[],
        summary: "The Zindabazar showroom marks another year in Sylhet.",
        intro: "Our Zindabazar showroom in Sylhet celebrates another year with the families of Sylhet division, who have furnished thousands of homes with us.",
        sections: &[
            ("Thank you", "To our customers in Sylhet, Moulvibazar, Habiganj and Sunamganj, and to the showroom team."),
            ("Visit us", "Zindabazar Point, Sylhet 3100, open 10 am to 9 pm, Saturday to Thursday."),
        ],
    },
    PostText {
        title: "Office furniture for startups",
        theme: OFFICE,
        sub: Some(13),
        sizes: &[],
        summary: "Workstations, chairs and cabinets for teams of five to fifty.",
        intro: "Our business team now furnishes offices for new companies, from a five-person room in Banani to a fifty-seat floor in Gulshan.",
        sections: &[
            ("Planning included", "Send us the floor plan and we propose a layout with workstations, chairs and storage at no charge."),
            ("Delivered and assembled", "Orders are delivered and assembled over a weekend, so that work is not interrupted."),
        ],
    },
    PostText {
        title: "Showroom staff trained as interior advisers",
        theme: DRESSING,
        sub: Some(2),
        sizes: &[],
        summary: "Ask any showroom for help planning a room, free of charge.",
        intro: "Staff in every showroom have completed a course in planning rooms, and can help you choose pieces that fit your space and go together.",
        sections: &[
            ("Bring your measurements", "Bring the room's measurements, photos and the position of doors and windows; the advisers draw a plan with you."),
            ("No obligation", "The advice is free, whether or not you buy."),
        ],
    },
];

/// Frequently asked questions: question, answer (HTML).
pub(super) const FAQ: [(&str, &str); 10] = [
    ("How long does delivery take?", "Pieces in stock arrive within 72 hours of your order, not counting Fridays and public holidays. Made-to-order pieces take 10 to 15 working days, and pre-booked pieces three to four weeks. The product page says which applies."),
    ("What does delivery cost?", "Inside Dhaka, ৳200, or free on orders from ৳3,000. Everywhere else in Bangladesh, ৳300, or free from ৳5,000. See the <a href=\"/page/delivery-policy\">delivery policy</a>."),
    ("Do you assemble the furniture?", "Yes. Our delivery team assembles beds, wardrobes, tables and sets in your home at no extra charge, and takes the packaging away."),
    ("Can I pay cash on delivery?", "Yes, for almost every product; the few that cannot be paid on delivery say so on their page. Where the checkout offers them, you can also pay by card, bKash or Nagad."),
    ("Do I need an account to order?", "No. You can check out as a guest with your name, mobile number and address; an account is only created if you ask for one."),
    ("Can I pay in instalments?", "Yes, on products from ৳20,000 with a credit card from one of our partner banks. See the <a href=\"/page/emi-policy\">EMI policy</a> for banks, months and rates."),
    ("What if my furniture arrives damaged?", "Check it when it is unpacked and tell the delivery team, or call us within 7 days. We repair or replace it, or refund you. See <a href=\"/page/return-and-refund\">returns and refunds</a>."),
    ("How do I track my order?", "Use the <a href=\"/page/track-order\">Track Order</a> page with your order number and the mobile number you ordered with."),
    ("Can I see the furniture before buying?", "Yes. We have showrooms in Dhaka, Chattogram, Sylhet, Khulna, Rajshahi, Rangpur, Barishal, Mymensingh, Cumilla, Narayanganj and Gazipur; see <a href=\"/page/showrooms\">our showrooms</a>."),
    ("What does pre-booking mean?", "Some pieces are made to order. You reserve one with a part payment (20 to 50 percent, shown on the product page) and pay the rest on delivery. A cart holds either pre-booked pieces or ordinary ones, not both."),
];
